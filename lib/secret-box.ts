// Secrets kept at rest (admins' TOTP secrets): AES-256-GCM under a key derived (HKDF-SHA256) from a configured secret
// and a purpose, so one configured secret never serves two uses directly. Sealed form: `v1.<iv>.<tag>.<ciphertext>`.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

export interface SecretBox {
  seal: (plaintext: string) => string
  /** The plaintext, or null when the value was not sealed with this key (or was altered). */
  open: (sealed: string) => string | null
}

export function secretBox (secret: string, purpose: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `secret-box:${purpose}`, 32))
  return {
    seal (plaintext) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return ['v1', iv, cipher.getAuthTag(), ciphertext].map(part => typeof part === 'string' ? part : part.toString('base64url')).join('.')
    },
    open (sealed) {
      const [version, iv, tag, ciphertext] = sealed.split('.')
      if (version !== 'v1' || iv == null || tag == null || ciphertext == null) return null
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
        decipher.setAuthTag(Buffer.from(tag, 'base64url'))
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8')
      } catch {
        return null
      }
    }
  }
}
