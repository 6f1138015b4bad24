// bcrypt at cost 12 on libuv's thread pool (native `bcrypt`): hashing never blocks the event loop.
import bcrypt from 'bcrypt'
import fp from 'fastify-plugin'

export const BCRYPT_COST = 12

// A cost-12 hash of a random string nobody knows: comparing against it when an account does not exist makes
// "unknown user" take as long as "wrong password".
const DUMMY_HASH = '$2b$12$BKnT5.WbAD0MeZ6etrT4xOJKLC5Oos/vB1dAHjdCZwGBLbZ6YgPoC'

export interface Passwords {
  hash: (password: string) => Promise<string>
  /** Compares against `hash`, or against a dummy hash when there is none, in the same time. */
  verify: (password: string, hash: string | null | undefined) => Promise<boolean>
}

declare module 'fastify' {
  interface FastifyInstance {
    passwords: Passwords
  }
}

export const passwords: Passwords = {
  hash: async password => await bcrypt.hash(password, BCRYPT_COST),
  verify: async (password, hash) => {
    const ok = await bcrypt.compare(password, hash ?? DUMMY_HASH)
    return ok && hash != null
  }
}

export default fp(async fastify => {
  fastify.decorate('passwords', passwords)
}, { name: 'password' })
