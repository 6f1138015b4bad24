export * from './users.js'
export * from './recipes.js'
export * from './plans.js'
export * from './mail.js'
