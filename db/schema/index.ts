export * from './users.js'
export * from './recipes.js'
