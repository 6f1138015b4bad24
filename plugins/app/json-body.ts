// The API's JSON body parser (lib/json-body.ts, shared with the web proxy).
export { default } from '../../lib/json-body.js'
