// Account settings: profile, avatar, password, email and notification preferences, a copy of my data, deletion.
import { call, check, act, say, heading } from '../app.js'
import { h, field, select, checkbox, picture, dataUrl, shortDate } from './dom.js'

const EMAILS = [['emailLikes', 'Someone likes my recipe'], ['emailComments', 'Someone comments on my recipe'], ['emailFollows', 'Someone follows me'],
  ['emailNewRecipes', 'People I follow post a recipe'], ['newsletter', 'Newsletter'], ['productUpdates', 'Product updates']]
const DIGEST = [['none', 'Never'], ['daily', 'Daily'], ['weekly', 'Weekly']]
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map(d => [d, d[0].toUpperCase() + d.slice(1)])

export const show = {
  async render (ctx) {
    const [profile, prefs, settings, deletions] = await Promise.all([
      call('GET', '/bff/api/users/profile'), call('GET', '/bff/api/users/email-preferences'),
      call('GET', '/bff/api/users/notification-settings'), call('GET', '/bff/api/data-deletion')
    ])
    if (!ctx.live() || !check(profile, 200)) return
    const user = profile.body.user
    ctx.screen.append(h('div', { class: 'settings' }, heading('Account settings'),
      profileCard(user), avatarCard(user), passwordCard(),
      emailCard(prefs.body?.preferences ?? {}, settings.body?.settings ?? {}),
      dataCard(user, deletions.body)))
  }
}

function section (title, idName, ...content) {
  return h('section', { class: 'card', 'aria-labelledby': idName }, h('h2', { id: idName }, title), ...content)
}

function profileCard (user) {
  const input = (name, label, attrs = {}) => field(label, h('input', { name, value: user[name] ?? '', ...attrs }))
  const bio = h('textarea', { name: 'bio', rows: '3', maxlength: '2000', value: user.bio ?? '' })
  const form = h('form', { id: 'profile-form' },
    h('p', { class: 'meta' }, `${user.username} · ${user.email} · member since ${shortDate(user.createdAt)}`),
    h('div', { class: 'grid' }, input('firstName', 'First name', { maxlength: '100', autocomplete: 'given-name' }), input('lastName', 'Last name', { maxlength: '100', autocomplete: 'family-name' })),
    input('location', 'Location', { maxlength: '200' }), field('About you', bio),
    h('button', { type: 'submit' }, 'Save profile'))
  form.addEventListener('submit', act(async () => {
    const body = {}
    for (const name of ['firstName', 'lastName', 'location', 'bio']) body[name] = form.elements[name].value.trim() || null
    const saved = await call('PUT', '/bff/api/users/profile', body)
    if (check(saved, 200)) say('Profile saved')
  }))
  return section('Profile', 'profile-heading', form, h('p', {}, h('a', { href: `/users/${encodeURIComponent(user.username)}` }, 'See your public profile')))
}

function avatarCard (user) {
  const preview = h('div', { id: 'avatar-preview' }, picture(user.avatarUrl, 'Your avatar', 'avatar large'))
  const file = h('input', { type: 'file', name: 'avatar', id: 'avatar-input', accept: 'image/jpeg,image/png,image/webp,image/gif', required: true })
  file.addEventListener('change', () => {
    const chosen = file.files?.[0]
    if (chosen != null) dataUrl(chosen).then(src => preview.replaceChildren(h('img', { src, alt: 'New avatar (not saved yet)', class: 'avatar large' }))).catch(() => {})
  })
  const form = h('form', { id: 'avatar-form' }, field('Choose a picture', file), h('button', { type: 'submit' }, 'Upload avatar'))
  form.addEventListener('submit', act(async () => {
    const body = new FormData()
    body.append('avatar', file.files[0])
    const saved = await call('POST', '/bff/api/users/avatar', body)
    if (!check(saved, [200, 201])) return
    preview.replaceChildren(picture(saved.body.user.avatarUrl, 'Your avatar', 'avatar large'))
    form.reset()
    say('Avatar saved')
  }))
  const remove = h('button', {
    type: 'button',
    class: 'quiet',
    onclick: act(async () => {
      const gone = await call('DELETE', '/bff/api/users/avatar')
      if (!check(gone)) return
      preview.replaceChildren(picture(null, '', 'avatar large'))
      say('Avatar removed')
    })
  }, 'Remove avatar')
  return section('Avatar', 'avatar-heading', preview, form, remove)
}

function passwordCard () {
  const form = h('form', { id: 'password-form' },
    field('Current password', h('input', { name: 'currentPassword', type: 'password', required: true, maxlength: '200', autocomplete: 'current-password' })),
    field('New password', h('input', { name: 'newPassword', type: 'password', required: true, maxlength: '200', autocomplete: 'new-password' }),
      'At least 8 characters, with an uppercase letter, a lowercase letter and a digit.'),
    h('button', { type: 'submit' }, 'Change password'))
  form.addEventListener('submit', act(async () => {
    const changed = await call('POST', '/bff/api/auth/change-password', { currentPassword: form.elements.currentPassword.value, newPassword: form.elements.newPassword.value })
    form.reset()
    // The proxy moves the new token into the session cookie: this browser stays signed in.
    if (check(changed, 200)) say('Password changed')
  }))
  return section('Password', 'password-heading', form)
}

function emailCard (prefs, settings) {
  const form = h('form', { id: 'email-form' },
    h('fieldset', {}, h('legend', {}, 'Email me when'), EMAILS.map(([name, label]) => checkbox(label, { name, checked: prefs[name] === true }))),
    h('fieldset', {}, h('legend', {}, 'Digest of activity'),
      h('div', { class: 'grid' },
        field('How often', select({ name: 'digestFrequency' }, DIGEST, settings.digestFrequency ?? 'none')),
        field('Day (weekly)', select({ name: 'digestDay' }, DAYS, settings.digestDay ?? 'monday')),
        field('Time', h('input', { name: 'digestTime', type: 'time', value: settings.digestTime ?? '08:00' })))),
    checkbox('No emails at all', { name: 'unsubscribedAll', checked: prefs.unsubscribedAll === true }),
    h('button', { type: 'submit' }, 'Save preferences'))
  form.addEventListener('submit', act(async () => {
    const el = form.elements
    const body = { unsubscribedAll: el.unsubscribedAll.checked }
    for (const [name] of EMAILS) body[name] = el[name].checked
    const saved = await call('POST', '/bff/api/users/email-preferences', body)
    if (!check(saved, 200)) return
    const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone
    const digest = await call('PUT', '/bff/api/users/notification-settings', {
      emailLikes: el.emailLikes.checked,
      emailComments: el.emailComments.checked,
      digestFrequency: el.digestFrequency.value,
      digestDay: el.digestDay.value,
      digestTime: el.digestTime.value.slice(0, 5),
      digestTimezone: timezone
    })
    if (check(digest, 200)) say('Preferences saved')
  }))
  return section('Emails and notifications', 'email-heading', form)
}

function dataCard (user, deletions) {
  const link = h('a', { id: 'export-link', hidden: true, download: `recipes-${user.username}.json` }, 'Download the file')
  const exportButton = h('button', { type: 'button', id: 'export-button' }, 'Prepare a copy of my data')
  exportButton.addEventListener('click', act(async () => {
    const res = await call('GET', '/bff/api/gdpr/export')
    if (!check(res, 200)) return
    const blob = new Blob([JSON.stringify(res.body, null, 2)], { type: 'application/json' })
    if (link.href) URL.revokeObjectURL(link.href)
    link.href = URL.createObjectURL(blob)
    link.hidden = false
    link.focus()
    say('Your data is ready to download')
  }))

  const pending = (deletions?.requests ?? []).find(r => r.status === 'pending')
  const state = h('p', { id: 'deletion-state' }, pending ? `Deletion requested: it happens on ${shortDate(pending.scheduledFor)} unless you cancel it.` : '')
  const confirm = checkbox('I understand that my account, recipes and everything I wrote will be deleted', { name: 'confirm', required: true })
  const kind = select({ name: 'deleteType' }, [['account', 'My account and all my data'], ['data', 'My data only (keep the account)']], 'account')
  const form = h('form', { id: 'deletion-form', hidden: pending != null }, field('What to delete', kind), confirm, h('button', { type: 'submit', class: 'danger' }, 'Request deletion'))
  const cancel = h('button', { type: 'button', class: 'quiet', id: 'cancel-deletion', hidden: pending == null })
  cancel.textContent = 'Cancel the deletion'
  let requestId = pending?.id
  form.addEventListener('submit', act(async () => {
    const made = await call('POST', '/bff/api/data-deletion', { deleteType: kind.value })
    if (!check(made, [200, 201])) return
    requestId = made.body.requestId
    state.textContent = `Deletion requested: it happens on ${shortDate(made.body.request.scheduledFor)} unless you cancel it.`
    form.hidden = true
    cancel.hidden = false
    say('Deletion requested')
  }))
  cancel.addEventListener('click', act(async () => {
    const done = await call('POST', `/bff/api/data-deletion/${encodeURIComponent(requestId)}/cancel`)
    if (!check(done)) return
    state.textContent = 'Deletion cancelled.'
    form.hidden = false
    cancel.hidden = true
    say('Deletion cancelled')
  }))
  return section('Your data', 'data-heading',
    h('p', {}, 'Download everything this service holds about you, as JSON.'), exportButton, ' ', link,
    h('h3', {}, 'Delete'), state, form, cancel)
}
