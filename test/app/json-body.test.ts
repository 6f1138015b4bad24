import t from 'tap'
import { bearer, build, createRecipe, json, registerUser } from '../helper.js'

t.test('an empty JSON body is no body', async t => {
  const app = await build(t)
  const chef = await registerUser(app)
  const fan = await registerUser(app)
  const recipe = await createRecipe(app, chef)
  for (const payload of ['', '  \n']) {
    const res = await app.inject({ method: 'POST', url: `/api/social/recipes/${recipe.id}/like`, headers: { ...bearer(fan), 'content-type': 'application/json' }, payload })
    t.equal(res.statusCode, 200, `a body-less POST with ${JSON.stringify(payload)} and a JSON content type`)
    t.equal(json(res).liked, true)
  }
  const missing = await app.inject({ method: 'POST', url: '/api/recipes', headers: { ...bearer(chef), 'content-type': 'application/json' }, payload: '' })
  t.equal(missing.statusCode, 400, 'a route that needs a body still says so')
  t.equal(json(missing).error, 'Validation error')
  const malformed = await app.inject({ method: 'POST', url: '/api/recipes', headers: { ...bearer(chef), 'content-type': 'application/json' }, payload: '{"title": ' })
  t.same(json(malformed), { error: 'Validation error', details: ['body: malformed JSON'] })
  const poisoned = await app.inject({
    method: 'POST',
    url: '/api/recipes',
    headers: { ...bearer(chef), 'content-type': 'application/json' },
    payload: '{"title":"Pie","ingredients":["x"],"__proto__":{"admin":true}}'
  })
  t.equal(poisoned.statusCode, 201, 'prototype keys are still removed, not merged')
})
