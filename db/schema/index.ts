export * from './users.js'
export * from './recipes.js'
export * from './mail.js'
