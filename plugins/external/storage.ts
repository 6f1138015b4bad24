// Object storage for uploads (lib/storage.ts): DATA_DIR/uploads by default, an S3-compatible bucket when
// STORAGE_DRIVER=s3. Shared by every instance behind a load balancer only with the S3 driver (or a shared volume).
import fp from 'fastify-plugin'
import { localStorage, s3Storage, type Storage } from '../../lib/storage.js'

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage
  }
}

export default fp(async fastify => {
  const { driver, localDir, publicUrl, s3 } = fastify.config.storage
  fastify.decorate('storage', driver === 's3' && s3 != null ? s3Storage(s3, publicUrl) : localStorage(localDir, publicUrl))
}, { name: 'storage' })
