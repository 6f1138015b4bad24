// GDPR: the caller's privacy choices (consent) and the export of everything they own, as one JSON document.
// The export's item shapes are the types the data-export repository yields, so the document and the data cannot drift.
import { Type, type Static, type TSchema } from 'typebox'
import { DateTime, Id, Nullable, ref } from './common.js'
import { PushPreferences, PushSubscription } from './push.js'
import { NotificationSettings } from './users.js'

// ---- Consent ----

export const CONSENT_LIMITS = { policyVersion: 50 } as const

export const Consent = Type.Object({
  analytics: Type.Boolean({ description: 'Usage analytics beyond what the service needs to run' }),
  marketing: Type.Boolean({ description: 'Marketing emails and offers' }),
  personalization: Type.Boolean({ description: 'Recommendations shaped by what you do' }),
  policyVersion: Nullable(Type.String({ description: 'The privacy policy version these choices were made under' })),
  updatedAt: Nullable(DateTime, { description: 'When they were last changed; null: never (all off)' })
}, { $id: 'Consent', description: 'Your privacy choices; each is off until you turn it on' })
export type ConsentView = Static<typeof Consent>

export const ConsentBody = Type.Object({
  analytics: Type.Optional(Type.Boolean()),
  marketing: Type.Optional(Type.Boolean()),
  personalization: Type.Optional(Type.Boolean()),
  policyVersion: Type.Optional(Type.String({ minLength: 1, maxLength: CONSENT_LIMITS.policyVersion, description: `At most ${CONSENT_LIMITS.policyVersion} characters` }))
}, { description: 'Any subset of the choices: each one given replaces the stored one, the others stay. Unknown keys are ignored.' })
export type ConsentInput = Static<typeof ConsentBody>

// ---- Export ----

export const EXPORT_FORMAT = 'recipe-platform-export/1'

/** Another user as the export shows them: never more than who they are. */
const UserRef = Type.Object({ id: Id, username: Type.String() })
const LocalDate = Type.String({ format: 'date', description: 'YYYY-MM-DD' })
const Json = Type.Unknown({ description: 'As stored (free JSON)' })

/** One section of the export: a named list, so generated clients get a type per section. */
const section = <T extends TSchema>(name: string, item: T, description: string) =>
  Type.Array(item, { $id: `GdprExport${name}`, description })

export const ExportUser = Type.Object({
  id: Id,
  username: Type.String(),
  email: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  bio: Nullable(Type.String()),
  location: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()),
  verified: Type.Boolean(),
  emailVerifiedAt: Nullable(DateTime),
  active: Type.Boolean(),
  oauthProvider: Nullable(Type.String({ description: 'The external sign-in provider linked, if any (never its identifiers)' })),
  plan: Type.String(),
  emailPreferences: Type.Record(Type.String(), Type.Unknown()),
  doNotSellAt: Nullable(DateTime, { description: 'When you opted out of the sale or sharing of your data (CCPA)' }),
  lastLoginAt: Nullable(DateTime),
  passwordChangedAt: Nullable(DateTime),
  createdAt: DateTime,
  updatedAt: DateTime
}, { $id: 'GdprExportUser', description: 'Your account: no password hash, token or lockout state' })
export type ExportUserView = Static<typeof ExportUser>

const Subscription = Nullable(Type.Object({
  planId: Type.String(),
  status: Type.String(),
  startedAt: DateTime,
  endsAt: Nullable(DateTime)
}), { description: 'Your subscription record, if any' })
export type ExportSubscriptionView = Static<typeof Subscription>

export const ExportUsage = Type.Object({ kind: Type.String(), period: Type.String({ description: 'YYYY-MM' }), count: Type.Integer() })
export type ExportUsageView = Static<typeof ExportUsage>

export const ExportRecipe = Type.Object({
  id: Id,
  slug: Type.String(),
  title: Type.String(),
  description: Nullable(Type.String()),
  type: Type.String(),
  difficulty: Type.String(),
  visibility: Type.String(),
  published: Type.Boolean(),
  moderationStatus: Type.String(),
  cuisine: Nullable(Type.String()),
  prepTime: Nullable(Type.Integer()),
  cookTime: Nullable(Type.Integer()),
  totalTime: Nullable(Type.Integer()),
  servings: Nullable(Type.Integer()),
  ingredients: Type.Array(Json),
  instructions: Type.Array(Json),
  nutrition: Json,
  imageUrl: Nullable(Type.String()),
  sourceUrl: Nullable(Type.String()),
  sourceImageUrl: Nullable(Type.String(), { description: 'An imported recipe\'s original image address' }),
  tags: Type.Array(Type.String(), { description: 'Tag names' }),
  audience: Type.Array(UserRef, { description: 'Who may see it when its visibility is custom' }),
  likeCount: Type.Integer(),
  commentCount: Type.Integer(),
  ratingCount: Type.Integer(),
  averageRating: Type.Number(),
  createdAt: DateTime,
  updatedAt: DateTime,
  revisions: Type.Array(Type.Object({ id: Id, version: Type.Integer(), createdAt: DateTime, snapshot: Json }), {
    description: 'Earlier versions, oldest first, each as the recipe read then'
  })
})
export type ExportRecipeView = Static<typeof ExportRecipe>

export const ExportComment = Type.Object({
  id: Id, recipeId: Id, parentId: Nullable(Id), content: Type.String(), createdAt: DateTime, updatedAt: DateTime
})
export type ExportCommentView = Static<typeof ExportComment>

/** A like, bookmark or cooked mark: which recipe, and when. */
export const ExportMark = Type.Object({ recipeId: Id, createdAt: DateTime })
export type ExportMarkView = Static<typeof ExportMark>

export const ExportRating = Type.Object({ recipeId: Id, rating: Type.Integer(), createdAt: DateTime, updatedAt: DateTime })
export type ExportRatingView = Static<typeof ExportRating>

export const ExportCollection = Type.Object({
  id: Id,
  name: Type.String(),
  slug: Type.String(),
  description: Nullable(Type.String()),
  isPublic: Type.Boolean(),
  type: Type.String({ description: 'custom, or saved (the Saved Recipes collection)' }),
  createdAt: DateTime,
  updatedAt: DateTime,
  recipes: Type.Array(Type.Object({ recipeId: Id, sortOrder: Type.Integer(), addedAt: DateTime }))
})
export type ExportCollectionView = Static<typeof ExportCollection>

export const ExportFollow = Type.Object({ id: Id, username: Type.String(), createdAt: DateTime })
export type ExportFollowView = Static<typeof ExportFollow>

export const ExportNotification = Type.Object({
  id: Id,
  type: Type.String(),
  message: Type.String(),
  read: Type.Boolean(),
  recipeId: Nullable(Id),
  actor: Nullable(UserRef),
  data: Type.Record(Type.String(), Type.Unknown()),
  createdAt: DateTime
})
export type ExportNotificationView = Static<typeof ExportNotification>

export const ExportPlannedMeal = Type.Object({
  id: Id,
  mealPlanId: Nullable(Id),
  date: LocalDate,
  mealType: Type.String(),
  recipeId: Nullable(Id),
  customTitle: Nullable(Type.String()),
  servings: Nullable(Type.Integer()),
  notes: Nullable(Type.String()),
  plannedBy: UserRef,
  createdAt: DateTime,
  updatedAt: DateTime
})
export type ExportPlannedMealView = Static<typeof ExportPlannedMeal>

export const ExportMealPlan = Type.Object({
  id: Id,
  name: Type.String(),
  description: Nullable(Type.String()),
  startDate: LocalDate,
  endDate: LocalDate,
  createdAt: DateTime,
  updatedAt: DateTime,
  meals: Type.Array(ExportPlannedMeal, { description: 'Every meal planned in it, by you or by those you let edit it' })
})
export type ExportMealPlanView = Static<typeof ExportMealPlan>

export const ExportShare = Type.Object({
  id: Id,
  mealPlanId: Id,
  permission: Type.String(),
  family: Nullable(Type.Object({ id: Id, name: Type.String() })),
  user: Nullable(UserRef),
  createdAt: DateTime
})
export type ExportShareView = Static<typeof ExportShare>

export const ExportGroceryList = Type.Object({
  id: Id,
  name: Type.String(),
  mealPlanId: Nullable(Id),
  familyId: Nullable(Id),
  createdAt: DateTime,
  updatedAt: DateTime,
  items: Type.Array(Type.Object({
    id: Id,
    name: Type.String(),
    quantity: Nullable(Type.Number()),
    unit: Nullable(Type.String()),
    category: Type.String(),
    checked: Type.Boolean(),
    note: Nullable(Type.String()),
    position: Type.Integer(),
    createdAt: DateTime,
    updatedAt: DateTime
  }))
})
export type ExportGroceryListView = Static<typeof ExportGroceryList>

export const ExportFamily = Type.Object({ id: Id, name: Type.String(), role: Type.String(), joinedAt: DateTime })
export type ExportFamilyView = Static<typeof ExportFamily>

export const ExportMedia = Type.Object({
  id: Id,
  kind: Type.String({ description: 'image or avatar' }),
  key: Type.String(),
  url: Type.String(),
  contentType: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  size: Type.Integer({ description: 'Bytes stored' }),
  createdAt: DateTime
})
export type ExportMediaView = Static<typeof ExportMedia>
/** A media row as stored: the service adds its public URL. */
export type ExportMediaRow = Omit<ExportMediaView, 'url'>

export const ExportReport = Type.Object({
  id: Id,
  type: Type.String(),
  targetId: Type.String(),
  reason: Type.String(),
  details: Nullable(Type.String()),
  status: Type.String(),
  createdAt: DateTime,
  updatedAt: DateTime
})
export type ExportReportView = Static<typeof ExportReport>

export const ExportSupportTicket = Type.Object({
  id: Id,
  email: Nullable(Type.String()),
  name: Nullable(Type.String()),
  category: Type.String(),
  subject: Type.String(),
  message: Type.String(),
  pageUrl: Nullable(Type.String()),
  userAgent: Nullable(Type.String()),
  status: Type.String(),
  createdAt: DateTime
})
export type ExportSupportTicketView = Static<typeof ExportSupportTicket>

export const ExportImport = Type.Object({
  id: Id,
  source: Type.String(),
  mode: Type.String(),
  url: Nullable(Type.String()),
  status: Type.String(),
  error: Nullable(Type.String()),
  recipeId: Nullable(Id),
  durationMs: Type.Integer(),
  createdAt: DateTime
})
export type ExportImportView = Static<typeof ExportImport>

export const ExportAiGeneration = Type.Object({
  id: Id,
  status: Type.String(),
  request: Json,
  prompt: Nullable(Type.String()),
  model: Nullable(Type.String()),
  promptTokens: Nullable(Type.Integer()),
  completionTokens: Nullable(Type.Integer()),
  totalTokens: Nullable(Type.Integer()),
  attempts: Type.Integer(),
  latencyMs: Nullable(Type.Integer()),
  recipeId: Nullable(Id),
  error: Nullable(Type.String()),
  createdAt: DateTime,
  finishedAt: Nullable(DateTime)
})
export type ExportAiGenerationView = Static<typeof ExportAiGeneration>

export const ExportCcpaRequest = Type.Object({
  id: Id,
  email: Type.String(),
  name: Nullable(Type.String()),
  requestType: Type.String(),
  details: Nullable(Type.String()),
  status: Type.String(),
  createdAt: DateTime
})
export type ExportCcpaRequestView = Static<typeof ExportCcpaRequest>

export const ExportDeletionRequest = Type.Object({
  id: Id,
  email: Type.String(),
  deleteType: Type.String(),
  reason: Nullable(Type.String()),
  status: Type.String(),
  scheduledFor: DateTime,
  createdAt: DateTime,
  startedAt: Nullable(DateTime),
  completedAt: Nullable(DateTime),
  cancelledAt: Nullable(DateTime)
})
export type ExportDeletionRequestView = Static<typeof ExportDeletionRequest>

export const ExportEmail = Type.Object({
  id: Id, kind: Type.String(), subject: Type.String(), status: Type.String(), createdAt: DateTime, sentAt: Nullable(DateTime)
}, { description: 'An email the service wrote to you (the log entry, not its body)' })
export type ExportEmailView = Static<typeof ExportEmail>

export const GdprExportUsage = section('Usage', ExportUsage, 'Your monthly allowance counters (AI generations, imports)')
export const GdprExportPushSubscriptions = section('PushSubscriptions', ref(PushSubscription), 'Browsers that receive your push notifications: the push service\'s origin only, never the endpoint or keys')
export const GdprExportRecipes = section('Recipes', ExportRecipe, 'Every recipe you wrote, whatever its visibility, publication or moderation status')
export const GdprExportComments = section('Comments', ExportComment, 'Every comment you wrote, with the recipe it is on')
export const GdprExportLikes = section('Likes', ExportMark, 'Recipes you liked')
export const GdprExportRatings = section('Ratings', ExportRating, 'Your ratings')
export const GdprExportBookmarks = section('Bookmarks', ExportMark, 'Recipes you bookmarked')
export const GdprExportCollections = section('Collections', ExportCollection, 'Your collections and the recipes in them')
export const GdprExportCooked = section('Cooked', ExportMark, 'Your cooking history: recipes marked cooked, and when')
export const GdprExportFollowing = section('Following', ExportFollow, 'Users you follow, since when')
export const GdprExportFollowers = section('Followers', ExportFollow, 'Users who follow you, since when')
export const GdprExportNotifications = section('Notifications', ExportNotification, 'Notifications you received')
export const GdprExportMealPlans = section('MealPlans', ExportMealPlan, 'Your meal plans with their planned meals')
export const GdprExportPlannedMeals = section('PlannedMeals', ExportPlannedMeal, 'Meals you planned outside your own plans: your calendar, and plans shared with you')
export const GdprExportSharedMealPlans = section('SharedMealPlans', ExportShare, 'Shares of your meal plans you made')
export const GdprExportGroceryLists = section('GroceryLists', ExportGroceryList, 'Your grocery lists with their items')
export const GdprExportFamilies = section('Families', ExportFamily, 'Families you belong to, your role, since when')
export const GdprExportMedia = section('Media', ExportMedia, 'Files you uploaded (images and avatars)')
export const GdprExportReports = section('Reports', ExportReport, 'Reports you filed')
export const GdprExportSupportTickets = section('SupportTickets', ExportSupportTicket, 'Support tickets you sent while signed in')
export const GdprExportCcpaRequests = section('CcpaRequests', ExportCcpaRequest, 'CCPA requests you made while signed in')
export const GdprExportDataDeletionRequests = section('DataDeletionRequests', ExportDeletionRequest, 'Your account or data deletion requests')
export const GdprExportImports = section('Imports', ExportImport, 'Your recipe imports: source, page address, outcome')
export const GdprExportAiGenerations = section('AiGenerations', ExportAiGeneration, 'Your AI recipe generations: request, instructions sent, model, tokens, outcome')
export const GdprExportEmails = section('Emails', ExportEmail, 'The log of emails written to you: kind, subject, status and dates, not the bodies')

export const DataExport = Type.Object({
  exportedAt: Type.String({ format: 'date-time', description: 'The instant the document is a consistent snapshot of' }),
  format: Type.Literal(EXPORT_FORMAT),
  user: ref(ExportUser),
  subscription: Subscription,
  notificationSettings: ref(NotificationSettings),
  pushPreferences: ref(PushPreferences),
  consent: ref(Consent),
  usage: ref(GdprExportUsage),
  pushSubscriptions: ref(GdprExportPushSubscriptions),
  recipes: ref(GdprExportRecipes),
  comments: ref(GdprExportComments),
  likes: ref(GdprExportLikes),
  ratings: ref(GdprExportRatings),
  bookmarks: ref(GdprExportBookmarks),
  collections: ref(GdprExportCollections),
  cooked: ref(GdprExportCooked),
  following: ref(GdprExportFollowing),
  followers: ref(GdprExportFollowers),
  notifications: ref(GdprExportNotifications),
  mealPlans: ref(GdprExportMealPlans),
  plannedMeals: ref(GdprExportPlannedMeals),
  sharedMealPlans: ref(GdprExportSharedMealPlans),
  groceryLists: ref(GdprExportGroceryLists),
  families: ref(GdprExportFamilies),
  media: ref(GdprExportMedia),
  reports: ref(GdprExportReports),
  supportTickets: ref(GdprExportSupportTickets),
  ccpaRequests: ref(GdprExportCcpaRequests),
  dataDeletionRequests: ref(GdprExportDataDeletionRequests),
  imports: ref(GdprExportImports),
  aiGenerations: ref(GdprExportAiGenerations),
  emails: ref(GdprExportEmails)
}, {
  $id: 'GdprExport',
  description: 'Everything you own, as one JSON document in this key order. Other users appear only as id and username; ' +
    'their recipes only as ids. Secrets (password hash, tokens, push keys, lockout state) are never included.'
})
