// The admin API's content moderation: the recipe moderation queue and the reports users file.
import { Type, type Static } from 'typebox'
import { MODERATION_STATUSES, recipes, VISIBILITIES } from '../db/schema/recipes.js'
import { REPORT_STATUSES, REPORT_TYPES, reports } from '../db/schema/social.js'
import { pick, tableColumns } from './columns.js'
import { Id, Nullable, Pagination, PaginationQuery, ref, StringEnum } from './common.js'

const UserRef = Type.Object({ id: Id, username: Type.String() })

// ---- Recipes ----

export const AdminRecipeParams = Type.Object({ recipeId: Id })

export const AdminRecipeQuery = Type.Object({
  ...PaginationQuery.properties,
  moderationStatus: Type.Optional(StringEnum(MODERATION_STATUSES)),
  authorId: Type.Optional(Id),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Part of the title (case-insensitive)' }))
})
export type AdminRecipeFilters = Omit<Static<typeof AdminRecipeQuery>, 'page' | 'limit'>

const recipe = tableColumns(recipes)

export const AdminRecipe = Type.Object({
  ...pick(recipe, ['id', 'slug', 'title']),
  author: UserRef,
  ...pick(recipe, ['visibility', 'published', 'moderationStatus', 'moderationNote', 'moderatedAt', 'likeCount', 'commentCount',
    'createdAt', 'updatedAt'], {
    visibility: StringEnum(VISIBILITIES),
    moderationStatus: StringEnum(MODERATION_STATUSES),
    moderationNote: 'The note of the last moderation decision (admins only)',
    likeCount: Type.Integer({ minimum: 0 }),
    commentCount: Type.Integer({ minimum: 0 })
  })
}, { $id: 'AdminRecipe', description: 'A recipe with its moderation state' })
export type AdminRecipeView = Static<typeof AdminRecipe>

export const AdminRecipeList = Type.Object({
  recipes: Type.Array(ref(AdminRecipe)),
  pagination: ref(Pagination)
}, { description: 'Recipes, newest first' })

export const ModerationBody = Type.Object({
  moderationStatus: StringEnum(MODERATION_STATUSES, {
    description: 'approved and pending are listed; flagged and rejected are hidden from everyone but the author'
  }),
  note: Type.Optional(Type.String({ maxLength: 1000, description: 'Why (admins only); replaces the previous note, omitted clears it' }))
})
export type ModerationInput = Static<typeof ModerationBody>

export const AdminRecipeResponse = Type.Object({ recipe: ref(AdminRecipe) })

// ---- Reports ----

/** What reviewing a report may do to its target, and the target type each action applies to (null: any). */
export const REPORT_ACTION_TARGETS = {
  none: null,
  flag_recipe: 'recipe',
  reject_recipe: 'recipe',
  delete_comment: 'comment',
  ban_user: 'user',
  deactivate_user: 'user'
} as const satisfies Record<string, typeof REPORT_TYPES[number] | null>
export type ReportAction = keyof typeof REPORT_ACTION_TARGETS
export const REPORT_ACTIONS = Object.keys(REPORT_ACTION_TARGETS) as ReportAction[]

export const AdminReportParams = Type.Object({ reportId: Id })

export const AdminReportQuery = Type.Object({
  ...PaginationQuery.properties,
  status: Type.Optional(StringEnum(REPORT_STATUSES)),
  type: Type.Optional(StringEnum(REPORT_TYPES))
})
export type AdminReportFilters = Omit<Static<typeof AdminReportQuery>, 'page' | 'limit'>

export const ReportTarget = Type.Object({
  summary: Type.String({ description: 'recipe: its title; comment: its first 200 characters; user: the username' }),
  owner: Nullable(UserRef, { description: 'Whose it is: the recipe\'s or comment\'s author, or the user' }),
  recipeId: Nullable(Id, { description: 'The recipe (itself, or the one the comment is on); null for a user' }),
  state: Nullable(Type.String({ description: 'recipe: its moderationStatus; user: active, deactivated or banned; comment: null' }))
}, { $id: 'AdminReportTarget', description: 'What the report is about; null when it no longer exists' })
export type ReportTargetView = Static<typeof ReportTarget>

const report = tableColumns(reports)

export const AdminReport = Type.Object({
  ...pick(report, ['id', 'type', 'targetId'], { type: StringEnum(REPORT_TYPES), targetId: Id }),
  target: Nullable(ref(ReportTarget)),
  ...pick(report, ['reason', 'details', 'status', 'resolution', 'action'], {
    status: StringEnum(REPORT_STATUSES),
    action: Nullable(StringEnum(REPORT_ACTIONS))
  }),
  reporter: UserRef,
  reviewedBy: Nullable(UserRef, { description: 'The admin who last reviewed it' }),
  ...pick(report, ['reviewedAt', 'createdAt', 'updatedAt'])
}, { $id: 'AdminReport', description: 'A report with its reporter, target and review' })
export type AdminReportView = Static<typeof AdminReport>

export const AdminReportList = Type.Object({
  reports: Type.Array(ref(AdminReport)),
  pagination: ref(Pagination)
}, { description: 'Reports, newest first' })

export const ReportReviewBody = Type.Object({
  status: StringEnum(['reviewed', 'resolved'] as const),
  resolution: Type.Optional(Type.String({ maxLength: 2000, description: 'What was found or done (free text); omitted keeps the current one' })),
  action: Type.Optional(StringEnum(REPORT_ACTIONS, {
    description: 'Applied to the target in the same transaction as the review: `none`; recipe: `flag_recipe`, ' +
      '`reject_recipe`; comment: `delete_comment` (with its replies); user: `ban_user`, `deactivate_user`. Omitted: ' +
      'nothing is done to the target.'
  }))
})
export type ReportReviewInput = Static<typeof ReportReviewBody>

export const AdminReportResponse = Type.Object({ report: ref(AdminReport) })
