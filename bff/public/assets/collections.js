// Collections: mine (with the built-in Saved Recipes) and bookmarks; create one; a collection's recipes, removable.
import { call, check, act, say, heading, navigate, recipeCard, pager, loadResource } from '../app.js'
import { h, field, checkbox, picture } from './dom.js'

const id = encodeURIComponent

export const list = {
  async render (ctx) {
    const res = await call('GET', '/bff/api/collections?limit=50')
    if (!ctx.live() || !check(res, 200)) return
    const items = h('ul', { id: 'collection-list', class: 'tiles' }, res.body.collections.map(collection =>
      h('li', { class: 'tile', dataset: { collectionId: collection.id } },
        picture(collection.items?.[0]?.recipe?.imageUrl, '', 'thumb'),
        h('h3', {}, h('a', { href: `/collections/${id(collection.id)}` }, collection.name)),
        h('p', { class: 'meta' }, `${collection.itemCount} recipe${collection.itemCount === 1 ? '' : 's'}${collection.isPublic ? ' · public' : ''}`))))

    const name = h('input', { id: 'collection-name', name: 'name', required: true, maxlength: '100' })
    const form = h('form', { id: 'collection-create' }, field('Name', name),
      field('Description (optional)', h('input', { name: 'description', maxlength: '1000' })),
      checkbox('Anyone can see it', { name: 'isPublic' }),
      h('button', { type: 'submit' }, 'Create collection'))
    form.addEventListener('submit', act(async () => {
      const description = form.elements.description.value.trim()
      const made = await call('POST', '/bff/api/collections', { name: name.value, description: description || null, isPublic: form.elements.isPublic.checked })
      if (!check(made, 201)) return
      say(`Collection "${made.body.collection.name}" created`)
      await navigate(`/collections/${id(made.body.collection.id)}`)
    }))

    const bookmarks = h('ul', { id: 'bookmark-list', class: 'recipe-grid' })
    const pages = h('div')
    async function loadBookmarks (page) {
      const marks = await call('GET', `/bff/api/bookmarks?page=${page}&limit=12`)
      if (!check(marks, 200)) return
      bookmarks.replaceChildren(...marks.body.bookmarks.map(mark => recipeCard(mark.recipe)))
      if (marks.body.bookmarks.length === 0) bookmarks.replaceChildren(h('li', { class: 'empty' }, 'Nothing bookmarked yet.'))
      pages.replaceChildren(pager(marks.body.pagination, p => { loadBookmarks(p).catch(() => {}) }))
    }
    ctx.screen.append(
      h('div', { class: 'browse' },
        h('section', { class: 'browse-main' }, heading('Collections'), items,
          h('h2', {}, 'Bookmarks'), bookmarks, pages),
        h('aside', { class: 'card browse-side', 'aria-labelledby': 'new-collection' }, h('h2', { id: 'new-collection' }, 'New collection'), form)))
    await loadBookmarks(1)
  }
}

export const detail = {
  async render (ctx) {
    const cid = id(ctx.params.id)
    const body = await loadResource(ctx, `/bff/api/collections/${cid}`, { title: 'Collection not found', href: '/collections', link: 'Your collections' })
    if (body == null) return
    const collection = body.collection
    const mine = collection.userId === ctx.user.id
    const grid = h('ul', { id: 'collection-recipes', class: 'recipe-grid' })
    const pages = h('div')
    async function load (page) {
      const items = await call('GET', `/bff/api/collections/${cid}/recipes?page=${page}&limit=12`)
      if (!check(items, 200)) return
      const entries = items.body.items ?? items.body.recipes ?? []
      grid.replaceChildren(...entries.map(entry => {
        const card = recipeCard(entry.recipe ?? entry)
        if (mine) {
          const recipeId = (entry.recipe ?? entry).id
          card.querySelector('.likes').append(h('button', {
            type: 'button',
            class: 'quiet remove',
            onclick: act(async () => {
              const gone = await call('DELETE', `/bff/api/collections/${cid}/recipes/${id(recipeId)}`)
              if (!check(gone)) return
              card.remove()
              say('Removed from the collection')
            })
          }, 'Remove', h('span', { class: 'visually-hidden' }, ' from the collection')))
        }
        return card
      }))
      if (entries.length === 0) grid.replaceChildren(h('li', { class: 'empty' }, 'No recipe here yet: add one from its page.'))
      pages.replaceChildren(pager(items.body.pagination, p => { load(p).catch(() => {}) }))
    }
    const remove = mine && collection.type !== 'saved'
      ? h('button', {
        type: 'button',
        class: 'danger',
        onclick: act(async () => {
          if (!window.confirm(`Delete the collection "${collection.name}"? Its recipes stay.`)) return
          const gone = await call('DELETE', `/bff/api/collections/${cid}`)
          if (!check(gone)) return
          await navigate('/collections', true)
          say('Collection deleted')
        })
      }, 'Delete collection')
      : null
    ctx.screen.append(h('section', {}, heading(collection.name),
      collection.description ? h('p', { class: 'description' }, collection.description) : null,
      h('p', { class: 'meta' }, `${collection.itemCount} recipe${collection.itemCount === 1 ? '' : 's'}`, collection.isPublic ? ' · public' : ' · private'),
      grid, pages, remove))
    await load(1)
  }
}
