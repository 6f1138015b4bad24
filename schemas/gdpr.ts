// GDPR: the caller's privacy choices (consent) and the export of everything they own, as one JSON document.
// The export's item shapes are the types the data-export repository yields, so the document and the data cannot drift;
// their columns come from the tables (schemas/columns.ts), and test/app/export-shapes.test.ts fails when a table gains
// a column the export neither carries nor lists as left out.
import { Type, type Static, type TSchema } from 'typebox'
import {
  aiGenerations, ccpaRequests, collectionItems, collections, comments, consents, dataDeletionRequests, emailOutbox,
  families, familyMembers, follows, groceryItems, groceryLists, importLogs, likes, mealPlans, media, notifications,
  plannedMeals, ratings, recipeRevisions, recipes, reports, sharedMealPlans, subscriptions, supportTickets, usage, users
} from '../db/schema/index.js'
import { tableColumns, Json, pick } from './columns.js'
import { DateTime, Id, Nullable, ref } from './common.js'
import { PushPreferences, PushSubscription } from './push.js'
import { NotificationSettings } from './users.js'

// ---- Consent ----

export const CONSENT_LIMITS = { policyVersion: 50 } as const

export const Consent = Type.Object({
  ...pick(tableColumns(consents), ['analytics', 'marketing', 'personalization', 'policyVersion'], {
    analytics: 'Usage analytics beyond what the service needs to run',
    marketing: 'Marketing emails and offers',
    personalization: 'Recommendations shaped by what you do',
    policyVersion: 'The privacy policy version these choices were made under'
  }),
  // Not the column as is: a user without a row has never saved choices.
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

const user = tableColumns(users)
const recipe = tableColumns(recipes)
const plannedMeal = tableColumns(plannedMeals)

/** One section of the export: a named list, so generated clients get a type per section. */
const section = <T extends TSchema>(name: string, item: T, description: string) =>
  Type.Array(item, { $id: `GdprExport${name}`, description })

export const ExportUser = Type.Object({
  ...pick(user, ['id', 'username', 'email', 'firstName', 'lastName', 'bio', 'location', 'avatarUrl', 'verified',
    'emailVerifiedAt', 'active', 'oauthProvider'], {
    oauthProvider: 'The external sign-in provider linked, if any (never its identifiers)'
  }),
  plan: user.planId,
  ...pick(user, ['emailPreferences', 'doNotSellAt', 'lastLoginAt', 'passwordChangedAt', 'createdAt', 'updatedAt'], {
    emailPreferences: Type.Record(Type.String(), Type.Unknown()),
    doNotSellAt: 'When you opted out of the sale or sharing of your data (CCPA)'
  })
}, { $id: 'GdprExportUser', description: 'Your account: no password hash, token or lockout state' })
export type ExportUserView = Static<typeof ExportUser>

const Subscription = Nullable(Type.Object(pick(tableColumns(subscriptions), ['planId', 'status', 'startedAt', 'endsAt'])), {
  description: 'Your subscription record, if any'
})
export type ExportSubscriptionView = Static<typeof Subscription>

export const ExportUsage = Type.Object(pick(tableColumns(usage), ['kind', 'period', 'count'], { period: 'YYYY-MM' }))
export type ExportUsageView = Static<typeof ExportUsage>

export const ExportRecipe = Type.Object({
  ...pick(recipe, ['id', 'slug', 'title', 'description', 'type', 'difficulty', 'visibility', 'published', 'moderationStatus',
    'cuisine', 'prepTime', 'cookTime', 'totalTime', 'servings', 'ingredients', 'instructions', 'nutrition', 'imageUrl',
    'sourceUrl', 'sourceImageUrl'], {
    ingredients: Type.Array(Json),
    instructions: Type.Array(Json),
    sourceImageUrl: 'An imported recipe\'s original image address'
  }),
  tags: Type.Array(Type.String(), { description: 'Tag names' }),
  audience: Type.Array(UserRef, { description: 'Who may see it when its visibility is custom' }),
  ...pick(recipe, ['likeCount', 'commentCount', 'ratingCount']),
  averageRating: Type.Number(),
  ...pick(recipe, ['createdAt', 'updatedAt']),
  revisions: Type.Array(Type.Object(pick(tableColumns(recipeRevisions), ['id', 'version', 'createdAt', 'snapshot'])), {
    description: 'Earlier versions, oldest first, each as the recipe read then'
  })
})
export type ExportRecipeView = Static<typeof ExportRecipe>

export const ExportComment = Type.Object(pick(tableColumns(comments), ['id', 'recipeId', 'parentId', 'content', 'createdAt', 'updatedAt']))
export type ExportCommentView = Static<typeof ExportComment>

/** A like, bookmark or cooked mark: which recipe, and when (the three tables have the same columns). */
export const ExportMark = Type.Object(pick(tableColumns(likes), ['recipeId', 'createdAt']))
export type ExportMarkView = Static<typeof ExportMark>

export const ExportRating = Type.Object(pick(tableColumns(ratings), ['recipeId', 'rating', 'createdAt', 'updatedAt']))
export type ExportRatingView = Static<typeof ExportRating>

export const ExportCollection = Type.Object({
  ...pick(tableColumns(collections), ['id', 'name', 'slug', 'description', 'isPublic', 'type', 'createdAt', 'updatedAt'], {
    type: 'custom, or saved (the Saved Recipes collection)'
  }),
  recipes: Type.Array(Type.Object(pick(tableColumns(collectionItems), ['recipeId', 'sortOrder', 'addedAt'])))
})
export type ExportCollectionView = Static<typeof ExportCollection>

/** Another user, and when the follow (either way) was made. */
export const ExportFollow = Type.Object({ ...UserRef.properties, ...pick(tableColumns(follows), ['createdAt']) })
export type ExportFollowView = Static<typeof ExportFollow>

const notification = tableColumns(notifications)
export const ExportNotification = Type.Object({
  ...pick(notification, ['id', 'type', 'message', 'read', 'recipeId']),
  actor: Nullable(UserRef),
  ...pick(notification, ['data', 'createdAt'], { data: Type.Record(Type.String(), Type.Unknown()) })
})
export type ExportNotificationView = Static<typeof ExportNotification>

export const ExportPlannedMeal = Type.Object({
  ...pick(plannedMeal, ['id', 'mealPlanId', 'date', 'mealType', 'recipeId', 'customTitle', 'servings', 'notes']),
  plannedBy: UserRef,
  ...pick(plannedMeal, ['createdAt', 'updatedAt'])
})
export type ExportPlannedMealView = Static<typeof ExportPlannedMeal>

export const ExportMealPlan = Type.Object({
  ...pick(tableColumns(mealPlans), ['id', 'name', 'description', 'startDate', 'endDate', 'createdAt', 'updatedAt']),
  meals: Type.Array(ExportPlannedMeal, { description: 'Every meal planned in it, by you or by those you let edit it' })
})
export type ExportMealPlanView = Static<typeof ExportMealPlan>

const share = tableColumns(sharedMealPlans)
export const ExportShare = Type.Object({
  ...pick(share, ['id', 'mealPlanId', 'permission']),
  family: Nullable(Type.Object(pick(tableColumns(families), ['id', 'name']))),
  user: Nullable(UserRef),
  ...pick(share, ['createdAt'])
})
export type ExportShareView = Static<typeof ExportShare>

export const ExportGroceryList = Type.Object({
  ...pick(tableColumns(groceryLists), ['id', 'name', 'mealPlanId', 'familyId', 'createdAt', 'updatedAt']),
  items: Type.Array(Type.Object(pick(tableColumns(groceryItems),
    ['id', 'name', 'quantity', 'unit', 'category', 'checked', 'note', 'position', 'createdAt', 'updatedAt'])))
})
export type ExportGroceryListView = Static<typeof ExportGroceryList>

export const ExportFamily = Type.Object({
  ...pick(tableColumns(families), ['id', 'name']),
  ...pick(tableColumns(familyMembers), ['role', 'joinedAt'])
})
export type ExportFamilyView = Static<typeof ExportFamily>

const medium = tableColumns(media)
export const ExportMedia = Type.Object({
  ...pick(medium, ['id', 'kind', 'key'], { kind: 'image or avatar' }),
  url: Type.String(),
  ...pick(medium, ['contentType', 'width', 'height', 'size', 'createdAt'], { size: 'Bytes stored' })
})
export type ExportMediaView = Static<typeof ExportMedia>
/** A media row as stored: the service adds its public URL. */
export type ExportMediaRow = Omit<ExportMediaView, 'url'>

export const ExportReport = Type.Object(pick(tableColumns(reports),
  ['id', 'type', 'targetId', 'reason', 'details', 'status', 'createdAt', 'updatedAt']))
export type ExportReportView = Static<typeof ExportReport>

export const ExportSupportTicket = Type.Object(pick(tableColumns(supportTickets),
  ['id', 'email', 'name', 'category', 'subject', 'message', 'pageUrl', 'userAgent', 'status', 'createdAt']))
export type ExportSupportTicketView = Static<typeof ExportSupportTicket>

export const ExportImport = Type.Object(pick(tableColumns(importLogs),
  ['id', 'source', 'mode', 'url', 'status', 'error', 'recipeId', 'durationMs', 'createdAt']))
export type ExportImportView = Static<typeof ExportImport>

export const ExportAiGeneration = Type.Object(pick(tableColumns(aiGenerations),
  ['id', 'status', 'request', 'prompt', 'model', 'promptTokens', 'completionTokens', 'totalTokens', 'attempts', 'latencyMs',
    'recipeId', 'error', 'createdAt', 'finishedAt']))
export type ExportAiGenerationView = Static<typeof ExportAiGeneration>

export const ExportCcpaRequest = Type.Object(pick(tableColumns(ccpaRequests),
  ['id', 'email', 'name', 'requestType', 'details', 'status', 'createdAt']))
export type ExportCcpaRequestView = Static<typeof ExportCcpaRequest>

export const ExportDeletionRequest = Type.Object(pick(tableColumns(dataDeletionRequests),
  ['id', 'email', 'deleteType', 'reason', 'status', 'scheduledFor', 'createdAt', 'startedAt', 'completedAt', 'cancelledAt']))
export type ExportDeletionRequestView = Static<typeof ExportDeletionRequest>

export const ExportEmail = Type.Object(pick(tableColumns(emailOutbox), ['id', 'kind', 'subject', 'status', 'createdAt', 'sentAt']),
  { description: 'An email the service wrote to you (the log entry, not its body)' })
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
