// The activity feed (recipes of the people I follow), notifications with mark-as-read, and a person's profile page
// (follow / unfollow, their recipes).
import { call, check, act, say, heading, recipeCard, pager, refreshBadge, loadResource } from '../app.js'
import { h, picture, shortDate } from './dom.js'

const id = encodeURIComponent

export const feed = {
  async render (ctx) {
    const list = h('ul', { id: 'feed-list', class: 'recipe-grid' })
    const more = h('div')
    async function load (cursor) {
      const res = await call('GET', `/bff/api/feed?limit=12${cursor ? `&cursor=${id(cursor)}` : ''}`)
      if (!ctx.live() || !check(res, 200)) return
      list.append(...res.body.recipes.map(recipeCard))
      if (list.children.length === 0) list.append(h('li', { class: 'empty' }, 'Nothing yet. Follow people from their profile (open a recipe, then its author) to see their new recipes here.'))
      more.replaceChildren(res.body.nextCursor ? h('button', { type: 'button', class: 'quiet', onclick: act(() => load(res.body.nextCursor)) }, 'Show more') : '')
    }
    ctx.screen.append(h('section', {}, heading('Your feed'), h('p', { class: 'meta' }, 'New recipes from the people you follow.'), list, more))
    await load(null)
  }
}

export const notifications = {
  async render (ctx) {
    const list = h('ul', { id: 'notification-list', class: 'notifications' })
    const pages = h('div')
    const readAll = h('button', { type: 'button', class: 'quiet', id: 'read-all' }, 'Mark all as read')
    readAll.addEventListener('click', act(async () => {
      const res = await call('PATCH', '/bff/api/notifications/read-all')
      if (!check(res)) return
      for (const item of list.querySelectorAll('.unread')) item.classList.remove('unread')
      for (const button of list.querySelectorAll('.mark-read')) button.remove()
      await refreshBadge()
      say('All notifications marked as read')
    }))
    const entry = n => {
      const item = h('li', { class: n.read ? 'notification' : 'notification unread', dataset: { notificationId: n.id } },
        picture(n.actor?.avatarUrl, '', 'avatar'),
        h('div', {},
          h('p', {}, n.recipeId ? h('a', { href: `/recipes/${id(n.recipeId)}` }, n.message) : n.message),
          h('p', { class: 'meta' }, n.read ? '' : h('span', { class: 'visually-hidden' }, 'Unread. '), shortDate(n.createdAt))))
      if (!n.read) {
        item.append(h('button', {
          type: 'button',
          class: 'quiet mark-read',
          onclick: act(async event => {
            const res = await call('PATCH', `/bff/api/notifications/${id(n.id)}/read`)
            if (!check(res)) return
            item.classList.remove('unread')
            event.target.remove()
            await refreshBadge()
          })
        }, 'Mark as read'))
      }
      return item
    }
    async function load (page) {
      const res = await call('GET', `/bff/api/notifications?page=${page}&limit=20`)
      if (!ctx.live() || !check(res, 200)) return
      list.replaceChildren(...res.body.notifications.map(entry))
      if (res.body.notifications.length === 0) list.append(h('li', { class: 'empty' }, 'No notifications.'))
      readAll.hidden = res.body.unreadCount === 0
      pages.replaceChildren(pager(res.body.pagination, p => { load(p).catch(() => {}) }))
    }
    ctx.screen.append(h('section', { class: 'card' }, heading('Notifications'), readAll, list, pages))
    await load(1)
  }
}

export const profile = {
  async render (ctx) {
    const name = id(ctx.params.username)
    const body = await loadResource(ctx, `/bff/api/users/${name}`, { title: 'Nobody here', href: '/', link: 'Back to the recipes' })
    if (body == null) return
    const user = body.user
    const followers = h('span', { id: 'follower-count' }, String(user._count?.followers ?? 0))
    const follow = user.id === ctx.user.id
      ? h('a', { href: '/settings', class: 'button quiet' }, 'Edit your profile')
      : h('button', { type: 'button', id: 'follow-button', 'aria-pressed': String(user.isFollowing === true) }, user.isFollowing ? 'Unfollow' : 'Follow')
    if (follow.tagName === 'BUTTON') {
      follow.addEventListener('click', act(async () => {
        const on = follow.getAttribute('aria-pressed') !== 'true'
        const done = await call(on ? 'POST' : 'DELETE', `/bff/api/social/users/${id(user.id)}/follow`)
        if (!check(done, 200)) return
        follow.setAttribute('aria-pressed', String(on))
        follow.textContent = on ? 'Unfollow' : 'Follow'
        if (done.body.followerCount != null) followers.textContent = String(done.body.followerCount)
        say(on ? `Following ${user.username}` : `Stopped following ${user.username}`)
      }))
    }
    const grid = h('ul', { class: 'recipe-grid', id: 'user-recipes' })
    const pages = h('div')
    async function load (page) {
      const recipes = await call('GET', `/bff/api/users/${name}/recipes?page=${page}&limit=12`)
      if (!check(recipes, 200)) return
      grid.replaceChildren(...recipes.body.recipes.map(recipeCard))
      pages.replaceChildren(pager(recipes.body.pagination, p => { load(p).catch(() => {}) }))
    }
    const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ')
    ctx.screen.append(h('section', {},
      h('div', { class: 'profile-head' }, picture(user.avatarUrl, '', 'avatar large'),
        h('div', {}, heading(user.username), fullName ? h('p', {}, fullName) : null,
          user.bio ? h('p', { class: 'description' }, user.bio) : null,
          h('p', { class: 'meta' }, followers, ' followers · ', String(user._count?.following ?? 0), ' following · ', String(user._count?.recipes ?? 0), ' recipes'),
          follow)),
      h('h2', {}, 'Recipes'), grid, pages))
    await load(1)
  }
}
