// Signed-out screens: create an account, ask for a password reset link, and the page that link opens (?token=).
import { call, check, act, say, setUser, navigate, heading } from '../app.js'
import { h, field } from './dom.js'

const PASSWORD_HINT = 'At least 8 characters, with an uppercase letter, a lowercase letter and a digit.'

export const register = {
  async render ({ screen }) {
    const form = h('form', { id: 'register-form', autocomplete: 'on' },
      field('Email', h('input', { name: 'email', type: 'email', required: true, maxlength: '254', autocomplete: 'email' })),
      field('Username', h('input', { name: 'username', required: true, minlength: '3', maxlength: '30', pattern: '[A-Za-z0-9_.\\-]{3,30}', autocomplete: 'username' }),
        '3 to 30 letters, digits, dots, dashes or underscores.'),
      field('First name (optional)', h('input', { name: 'firstName', maxlength: '100', autocomplete: 'given-name' })),
      field('Password', h('input', { name: 'password', type: 'password', required: true, maxlength: '200', autocomplete: 'new-password' }), PASSWORD_HINT),
      h('button', { type: 'submit', id: 'register-button' }, 'Create account'))
    form.addEventListener('submit', act(async () => {
      const body = Object.fromEntries(new FormData(form))
      if (body.firstName === '') delete body.firstName
      const answer = await call('POST', '/bff/api/auth/register', body)
      form.elements.password.value = ''
      if (!check(answer, 201)) return
      // The proxy keeps the new account's token in the session cookie: signed in already.
      await setUser(answer.body.user)
      await navigate('/', true)
      say(`Welcome, ${answer.body.user.username}`)
    }))
    screen.append(h('section', { class: 'card narrow' }, heading('Create an account'), form,
      h('p', {}, 'Already have one? ', h('a', { href: '/signin' }, 'Sign in'))))
  }
}

export const forgot = {
  async render ({ screen }) {
    const form = h('form', { id: 'forgot-form' },
      field('Email', h('input', { name: 'email', type: 'email', required: true, maxlength: '254', autocomplete: 'email' })),
      h('button', { type: 'submit' }, 'Send me a reset link'))
    const done = h('p', { id: 'forgot-done', hidden: true })
    form.addEventListener('submit', act(async () => {
      const answer = await call('POST', '/bff/api/auth/forgot-password', { email: form.elements.email.value })
      if (!check(answer, 200)) return
      done.textContent = answer.body.message
      done.hidden = false
      say('Check your email')
    }))
    screen.append(h('section', { class: 'card narrow' }, heading('Forgotten password'),
      h('p', {}, 'Enter the email of your account; we send a link to choose a new password.'), form, done,
      h('p', {}, h('a', { href: '/signin' }, 'Back to sign in'))))
  }
}

export const reset = {
  async render ({ screen, query }) {
    const token = query.get('token') ?? ''
    if (token === '') {
      screen.append(h('section', { class: 'card narrow' }, heading('Choose a new password'),
        h('p', {}, 'This link is incomplete. '), h('a', { href: '/forgot-password' }, 'Ask for a new link')))
      return
    }
    const form = h('form', { id: 'reset-form' },
      field('New password', h('input', { name: 'password', type: 'password', required: true, maxlength: '200', autocomplete: 'new-password' }), PASSWORD_HINT),
      h('button', { type: 'submit' }, 'Set password'))
    form.addEventListener('submit', act(async () => {
      const answer = await call('POST', '/bff/api/auth/reset-password', { token, password: form.elements.password.value })
      form.elements.password.value = ''
      if (!check(answer, 200)) return
      // The token must not linger in the address bar or history.
      await navigate('/signin', true)
      say('Password changed: sign in with the new one')
    }))
    screen.append(h('section', { class: 'card narrow' }, heading('Choose a new password'), form))
  }
}
