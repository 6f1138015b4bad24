// Uploaded images: what POST /api/upload/image answers.
import { Type, type Static } from 'typebox'

export const ImageUpload = Type.Object({
  url: Type.String({ description: 'Public URL of the stored WebP file' }),
  key: Type.String({ description: '`uploads/<userId>/<id>.webp`: give it (or the url) as a recipe\'s imageUrl, or to DELETE /api/upload/image/{key}' }),
  width: Type.Integer(),
  height: Type.Integer(),
  size: Type.Integer({ description: 'Bytes stored' }),
  contentType: Type.Literal('image/webp')
}, { $id: 'ImageUpload' })
export type ImageUploadView = Static<typeof ImageUpload>

export const ImageKeyParams = Type.Object({
  '*': Type.String({ minLength: 1, maxLength: 300, description: 'The key of one of your uploads: `uploads/<yourUserId>/<id>.webp`' })
})

/** A stored file's path below /uploads: `<userId>/<id>.webp`. */
export const StoredFileParams = Type.Object({
  userId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
  fileName: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}\\.webp$' })
})
