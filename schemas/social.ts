// Likes, follows, ratings, cooked marks and reports: the shapes of their routes and the types derived from them.
import { Type, type Static } from 'typebox'
import { REPORT_STATUSES, REPORT_TYPES } from '../db/schema/social.js'
import { DateTime, Id, Nullable, ref, StringEnum } from './common.js'
import { Recipe } from './recipes.js'

export const UserParams = Type.Object({ userId: Id })

export const LikeState = Type.Object({ liked: Type.Boolean(), likeCount: Type.Integer({ minimum: 0 }) })
export type LikeStateView = Static<typeof LikeState>
/** After an unlike the count is only shown to someone who may still see the recipe. */
export const UnlikeState = Type.Object({
  liked: Type.Literal(false),
  likeCount: Nullable(Type.Integer({ minimum: 0 }), { description: 'null when you can no longer see the recipe' })
})
export type UnlikeStateView = Static<typeof UnlikeState>

export const FollowState = Type.Object({ following: Type.Boolean(), followerCount: Type.Integer({ minimum: 0 }) })
export type FollowStateView = Static<typeof FollowState>
export const UnfollowState = Type.Object({
  following: Type.Literal(false),
  followerCount: Nullable(Type.Integer({ minimum: 0 }), { description: 'null when the user is no longer active' })
})
export type UnfollowStateView = Static<typeof UnfollowState>

export const RatingBody = Type.Object({ rating: Type.Integer({ minimum: 1, maximum: 5 }) })
export const RatingResult = Type.Object({
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  averageRating: Type.Number({ description: 'Mean of all ratings, two decimals' }),
  ratingCount: Type.Integer({ minimum: 0 })
})
export type RatingResultView = Static<typeof RatingResult>
export const RatingSummary = Type.Object({
  averageRating: Type.Number({ description: 'Mean of all ratings, two decimals; 0 when there are none' }),
  ratingCount: Type.Integer({ minimum: 0 }),
  userRating: Nullable(Type.Integer({ minimum: 1, maximum: 5 }), { description: 'The caller\'s rating (null when anonymous or not rated)' }),
  distribution: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { description: 'Count per star, "1" to "5"' })
})
export type RatingSummaryView = Static<typeof RatingSummary>

export const CookedState = Type.Object({ cooked: Type.Boolean() })
export const CookedEntry = Type.Object({ cookedAt: DateTime, recipe: ref(Recipe) })
export type CookedEntryView = Static<typeof CookedEntry>

export const Report = Type.Object({
  id: Id,
  type: StringEnum(REPORT_TYPES),
  targetId: Id,
  reason: Type.String(),
  details: Nullable(Type.String()),
  status: StringEnum(REPORT_STATUSES),
  createdAt: DateTime
}, { $id: 'Report', description: 'A report of a recipe, comment or user, for the moderators' })
export type ReportView = Static<typeof Report>

export const ReportBody = Type.Object({
  type: StringEnum(REPORT_TYPES),
  targetId: Id,
  reason: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Trimmed; must not be blank' }),
  details: Type.Optional(Type.String({ maxLength: 5000 }))
})
export type ReportInput = Static<typeof ReportBody>
