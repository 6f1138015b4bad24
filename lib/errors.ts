// Named errors: every rule violation a client can see has a code, a status and one message, defined here once.
// lib/error-body.ts turns them into the bodies of decisions.md section 1.

export class HttpError extends Error {
  readonly statusCode: number
  readonly code: string
  readonly details?: string[]
  /** Extra body fields next to `error` (retryAfter, limit, used...). */
  readonly extra?: Record<string, unknown>
  /** Response headers that go with it (x-ratelimit-*). */
  readonly headers?: Record<string, number>

  constructor (statusCode: number, message: string, options: { code?: string, details?: string[], extra?: Record<string, unknown>, headers?: Record<string, number> } = {}) {
    super(message)
    this.name = 'HttpError'
    this.statusCode = statusCode
    this.code = options.code ?? `HTTP_${statusCode}`
    this.details = options.details
    this.extra = options.extra
    this.headers = options.headers
  }
}

type NamedError = new (extra?: Record<string, unknown>) => HttpError

/** A named error class: `throw new RecipeNotFound()`. */
function named (code: string, statusCode: number, message: string): NamedError {
  return class extends HttpError {
    constructor (extra?: Record<string, unknown>) {
      super(statusCode, message, { code, extra })
      this.name = code
    }
  }
}

// 400
export const validationError = (details: string[]) => new HttpError(400, 'Validation error', { code: 'VALIDATION_ERROR', details })
export const CannotFollowSelf = named('CANNOT_FOLLOW_SELF', 400, 'You cannot follow yourself')
export const WrongParentRecipe = named('WRONG_PARENT_RECIPE', 400, 'The parent comment belongs to another recipe')
export const InvalidResetToken = named('INVALID_RESET_TOKEN', 400, 'Invalid or expired reset token')
export const InvalidCode = named('INVALID_CODE', 400, 'Invalid or expired code')
export const WrongCurrentPassword = named('WRONG_CURRENT_PASSWORD', 400, 'Current password is incorrect')
export const ProviderNotConfigured = () => validationError(['provider: is not configured'])
/** A file that is not a plain image of its declared type, does not decode, or is too large once decoded. */
export const invalidImage = (field: string, problem: string) =>
  new HttpError(400, 'Invalid image', { code: 'INVALID_IMAGE', details: [`${field}: ${problem}`] })

// 401
export const AUTH_REQUIRED = 'Authentication required'
export const INVALID_TOKEN = 'Invalid or expired token'
export const AuthenticationRequired = named('AUTHENTICATION_REQUIRED', 401, AUTH_REQUIRED)
export const InvalidToken = named('INVALID_TOKEN', 401, INVALID_TOKEN)
export const InvalidCredentials = named('INVALID_CREDENTIALS', 401, 'Invalid credentials')
export const InvalidIdentityToken = named('INVALID_IDENTITY_TOKEN', 401, 'Invalid identity token')

// 403
export const AccountBanned = named('ACCOUNT_BANNED', 403, 'Account is banned')
export const AccountDeactivated = named('ACCOUNT_DEACTIVATED', 403, 'Account is deactivated')
export const NotRecipeAuthor = named('NOT_RECIPE_AUTHOR', 403, 'Only the author can change this recipe')
export const NotCommentAuthor = named('NOT_COMMENT_AUTHOR', 403, 'Not authorized to edit this comment')
export const CommentDeleteForbidden = named('COMMENT_DELETE_FORBIDDEN', 403, 'Not authorized to delete this comment')
export const OwnRecipeRating = named('OWN_RECIPE_RATING', 403, 'You cannot rate your own recipe')
export const RecipeLimitReached = named('RECIPE_LIMIT_REACHED', 403, 'Recipe limit reached for your plan')
export const ImageDeleteForbidden = named('IMAGE_DELETE_FORBIDDEN', 403, 'Not authorized to delete this image')
export const UploadLimitReached = named('UPLOAD_LIMIT_REACHED', 403, 'Upload limit reached')

// 404
export const NotFound = named('NOT_FOUND', 404, 'Not found')
export const RecipeNotFound = named('RECIPE_NOT_FOUND', 404, 'Recipe not found')
export const RevisionNotFound = named('REVISION_NOT_FOUND', 404, 'Revision not found')
export const UserNotFound = named('USER_NOT_FOUND', 404, 'User not found')
export const CommentNotFound = named('COMMENT_NOT_FOUND', 404, 'Comment not found')
export const CollectionNotFound = named('COLLECTION_NOT_FOUND', 404, 'Collection not found')
export const NotInCollection = named('NOT_IN_COLLECTION', 404, 'Recipe not in this collection')
export const NotificationNotFound = named('NOTIFICATION_NOT_FOUND', 404, 'Notification not found')
export const TagNotFound = named('TAG_NOT_FOUND', 404, 'Tag not found')
export const ReportTargetNotFound = named('REPORT_TARGET_NOT_FOUND', 404, 'Reported item not found')
export const ImageNotFound = named('IMAGE_NOT_FOUND', 404, 'Image not found')

// 409
export const DUPLICATE_ACCOUNT = 'An account with these details already exists'
export const DuplicateAccount = named('DUPLICATE_ACCOUNT', 409, DUPLICATE_ACCOUNT)
export const SavedCollectionUndeletable = named('SAVED_COLLECTION_UNDELETABLE', 409, 'The Saved Recipes collection cannot be deleted')
export const AlreadyReported = named('ALREADY_REPORTED', 409, 'You have already reported this')

// 415
export const unsupportedImage = (field: string, allowed: readonly string[]) =>
  new HttpError(415, 'Unsupported image type', { code: 'UNSUPPORTED_IMAGE', details: [`${field}: must be one of ${allowed.join(', ')}`] })

// 423, 429, 503
export const accountLocked = (retryAfter: number) => new HttpError(423, 'Account temporarily locked', { code: 'ACCOUNT_LOCKED', extra: { retryAfter } })
/** With `max`, the `x-ratelimit-*` headers of decisions.md go with it (the limiter hooks set their own). */
export const tooManyRequests = (retryAfter: number, limit?: 'global' | 'router' | 'auth', max?: number) =>
  new HttpError(429, 'Too many requests', {
    code: 'RATE_LIMITED',
    extra: { retryAfter, ...(limit != null && { limit }) },
    headers: max == null ? undefined : { 'x-ratelimit-limit': max, 'x-ratelimit-remaining': 0, 'x-ratelimit-reset': retryAfter }
  })
/** A dependency (database, cache, storage) is away for now: clients retry after Retry-After seconds. */
export class ServiceUnavailable extends HttpError {
  constructor () {
    super(503, 'Service temporarily unavailable', { code: 'SERVICE_UNAVAILABLE', headers: { 'retry-after': 2 } })
    this.name = 'SERVICE_UNAVAILABLE'
  }
}
export const ServiceBusy = named('SERVICE_BUSY', 503, 'Service busy, please retry')
// The admin email log (/api/admin/emails)
export const EmailNotFound = named('EMAIL_NOT_FOUND', 404, 'Email not found')
export const EmailNotFailed = named('EMAIL_NOT_FAILED', 409, 'Only a failed email can be resent')
export const EmailDeliveryOff = named('EMAIL_DELIVERY_OFF', 503, 'Email delivery is not configured: emails are only recorded')
/** The file storage is full (a disk with no space left, a bucket over its quota): nothing of the upload was kept. */
export const InsufficientStorage = named('INSUFFICIENT_STORAGE', 507, 'Insufficient storage')
/** The client closed its connection before its work began: nobody reads this answer. */
export const RequestAbandoned = named('REQUEST_ABANDONED', 499, 'Request abandoned by the client')

/** The SQLSTATE of a postgres.js error. */
export function postgresCode (err: unknown): string | undefined {
  for (let e = err as { code?: unknown, cause?: unknown, name?: string } | undefined, i = 0; e != null && i < 3; e = e.cause as typeof e, i++) {
    if (e.name === 'PostgresError' && typeof e.code === 'string') return e.code
  }
  return undefined
}

export const isUniqueViolation = (err: unknown) => postgresCode(err) === '23505'

/** postgres.js's codes for a lost or impossible connection, and the socket errors behind them. */
const UNREACHABLE = new Set(['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNREFUSED', 'ECONNRESET',
  'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])

/** Whether `err` says a service the request needed (the database, Redis) could not be reached. */
export function isUnreachable (err: unknown): boolean {
  for (let e = err as { code?: unknown, cause?: unknown } | undefined, i = 0; e != null && i < 3; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && UNREACHABLE.has(e.code)) return true
  }
  return false
}

// Families (/api/families)
export const CannotRemoveSelfFromFamily = named('CANNOT_REMOVE_SELF_FROM_FAMILY', 400, 'You cannot remove yourself: leave the family instead (POST /api/families/{familyId}/leave)')
export const NotFamilyOwner = named('NOT_FAMILY_OWNER', 403, 'Only an owner of the family can do this')
export const NotFamilyManager = named('NOT_FAMILY_MANAGER', 403, 'Only owners and admins of the family can do this')
export const FamilyManagerRemoval = named('FAMILY_MANAGER_REMOVAL', 403, 'Admins can remove members only, not owners or other admins')
export const FamilyMemberLimitReached = named('FAMILY_MEMBER_LIMIT_REACHED', 403, 'This family has reached its member limit')
export const FamilyMembershipLimitReached = named('FAMILY_MEMBERSHIP_LIMIT_REACHED', 403, 'You belong to as many families as allowed')
export const FamilyNotFound = named('FAMILY_NOT_FOUND', 404, 'Family not found')
export const InviteCodeNotFound = named('INVITE_CODE_NOT_FOUND', 404, 'Invite code not found')
export const FamilyMemberNotFound = named('FAMILY_MEMBER_NOT_FOUND', 404, 'Not a member of this family')
export const LastOwnerCannotLeave = named('LAST_OWNER_CANNOT_LEAVE', 409, 'You are the last owner of this family: make another member an owner before leaving')
export const LastOwnerCannotStepDown = named('LAST_OWNER_CANNOT_STEP_DOWN', 409, 'You are the last owner of this family: make another member an owner before changing your own role')

// Meal planning (/api/mealplans, /api/planned-meals, /api/shared-meal-plans)
export const NotMealPlanOwner = named('NOT_MEAL_PLAN_OWNER', 403, 'Only the meal plan\'s owner can change, delete or share it')
export const MealPlanReadOnly = named('MEAL_PLAN_READ_ONLY', 403, 'You have view-only access to this meal plan')
export const NotShareOwner = named('NOT_SHARE_OWNER', 403, 'Only the meal plan\'s owner can revoke this share')
export const MealPlanLimitReached = named('MEAL_PLAN_LIMIT_REACHED', 403, 'You have as many meal plans as allowed')
export const MealPlanFull = named('MEAL_PLAN_FULL', 403, 'This meal plan has as many planned meals as allowed')
export const MealCalendarFull = named('MEAL_CALENDAR_FULL', 403, 'Your calendar has as many planned meals as allowed')
export const MealPlanShareLimitReached = named('MEAL_PLAN_SHARE_LIMIT_REACHED', 403, 'This meal plan is shared with as many users and families as allowed')
export const MealPlanNotFound = named('MEAL_PLAN_NOT_FOUND', 404, 'Meal plan not found')
export const PlannedMealNotFound = named('PLANNED_MEAL_NOT_FOUND', 404, 'Planned meal not found')
export const SharedMealPlanNotFound = named('SHARED_MEAL_PLAN_NOT_FOUND', 404, 'Shared meal plan not found')
/** New plan dates would leave some of its planned meals outside them. */
export const mealsOutsidePlanDates = (count: number, startDate: string, endDate: string) =>
  new HttpError(409, 'Planned meals fall outside the new dates', {
    code: 'MEALS_OUTSIDE_PLAN_DATES',
    details: [`dates: ${count} planned meal${count === 1 ? '' : 's'} would fall outside ${startDate} to ${endDate}; move or remove them first`]
  })

// Grocery lists (/api/grocerylists, /api/grocery-integrations)
export const NotGroceryListOwner = named('NOT_GROCERY_LIST_OWNER', 403, 'Only the list\'s owner can delete or share it')
export const GroceryListLimitReached = named('GROCERY_LIST_LIMIT_REACHED', 403, 'You have as many grocery lists as allowed')
export const GroceryListFull = named('GROCERY_LIST_FULL', 403, 'This grocery list has as many items as allowed')
export const GroceryListNotFound = named('GROCERY_LIST_NOT_FOUND', 404, 'Grocery list not found')
export const GroceryItemNotFound = named('GROCERY_ITEM_NOT_FOUND', 404, 'Grocery item not found')

// Web Push (/api/push-notifications)
export const PushNotConfigured = named('PUSH_NOT_CONFIGURED', 503, 'Push notifications are not configured')
export const PushSubscriptionNotFound = named('PUSH_SUBSCRIPTION_NOT_FOUND', 404, 'Push subscription not found')

// Unsubscribe (/api/unsubscribe)
export const InvalidUnsubscribeToken = named('INVALID_UNSUBSCRIBE_TOKEN', 400, 'This unsubscribe link is invalid or expired')

// Data deletion
export const DeletionRequestNotFound = named('DELETION_REQUEST_NOT_FOUND', 404, 'Request not found')
export const DeletionNotCancellable = named('DELETION_NOT_CANCELLABLE', 409, 'This request is already being carried out or is finished, and can no longer be cancelled')

// Support (/api/support)
export const SupportTicketNotFound = named('SUPPORT_TICKET_NOT_FOUND', 404, 'Support ticket not found')

// Admin API (/api/admin)
export const AdminAuthRequired = named('ADMIN_AUTH_REQUIRED', 401, 'Admin authentication required')
export const InvalidAdminToken = named('INVALID_ADMIN_TOKEN', 401, 'Invalid or expired admin session')
export const InvalidMfaCode = named('INVALID_MFA_CODE', 401, 'Invalid authentication code')
export const MfaAlreadyEnabled = named('MFA_ALREADY_ENABLED', 409, 'Multi-factor authentication is already enabled')
export const MfaNotEnabled = named('MFA_NOT_ENABLED', 409, 'Multi-factor authentication is not enabled')
export const MfaSetupMissing = named('MFA_SETUP_MISSING', 409, 'Start with POST /api/admin/auth/mfa/setup')
export const OwnAdminUnlock = named('OWN_ADMIN_UNLOCK', 403, 'An admin cannot unlock their own account; ask another admin')
export const AdminSessionNotFound = named('ADMIN_SESSION_NOT_FOUND', 404, 'Session not found')
export const AdminNotFound = named('ADMIN_NOT_FOUND', 404, 'Admin not found')
export const DuplicateAdmin = named('DUPLICATE_ADMIN', 409, 'An admin with this email or username already exists')

// Admin: database backups
export const InvalidBackupName = named('INVALID_BACKUP_NAME', 400, 'Invalid backup file name')
export const BackupNotFound = named('BACKUP_NOT_FOUND', 404, 'Backup not found')
export const BackupInProgress = named('BACKUP_IN_PROGRESS', 409, 'Another backup is being written; try again when it has finished')

// Admin: users, recipes, reports
export const UnknownPlan = named('UNKNOWN_PLAN', 400, 'Unknown plan: use the id of an existing plan')
export const ReportActionNotApplicable = named('REPORT_ACTION_NOT_APPLICABLE', 400, 'This action does not apply to the reported item')
export const ReportNotFound = named('REPORT_NOT_FOUND', 404, 'Report not found')
export const ReportReopenConflict = named('REPORT_REOPEN_CONFLICT', 409, 'The reporter has filed another open report on this item since: review that one instead')

// Admin: feature flags and plans
export const FeatureFlagNotFound = named('FEATURE_FLAG_NOT_FOUND', 404, 'Feature flag not found')
export const PlanNotFound = named('PLAN_NOT_FOUND', 404, 'Plan not found')
export const DuplicatePlan = named('DUPLICATE_PLAN', 409, 'A plan with this id already exists')
export const PlanInUse = named('PLAN_IN_USE', 409, 'Users are on this plan: move them to another plan first, or deactivate it instead')
export const FreePlanRequired = named('FREE_PLAN_REQUIRED', 409, 'The free plan cannot be deleted or deactivated')

// Recipe import (/api/recipe-import) and usage limits
export const RecipeImportDisabled = named('RECIPE_IMPORT_DISABLED', 403, 'Recipe import is not available for your account')
export const ImportLimitReached = named('IMPORT_LIMIT_REACHED', 403, 'Monthly import limit reached for your plan')
export const AiLimitReached = named('AI_LIMIT_REACHED', 403, 'Monthly AI generation limit reached for your plan')
export const LegacyImportForbidden = named('LEGACY_IMPORT_FORBIDDEN', 403, 'userId must be your own user id')
/** A URL the import may not fetch; `details` names why (scheme, port, address, credentials, a redirect hop). */
export class UrlNotAllowed extends HttpError {
  constructor (reason?: string) {
    super(400, 'URL not allowed', { code: 'URL_NOT_ALLOWED', ...(reason != null && { details: [reason] }) })
    this.name = 'URL_NOT_ALLOWED'
  }
}
/** Reading the fetched page took longer than its bound: said as such, not as "No recipe found". */
export const pageReadTimeout = (seconds: number) =>
  new HttpError(504, 'The page took too long to read', { code: 'PAGE_READ_TIMEOUT', details: [`reading the page took longer than ${seconds} s`] })
export const NoRecipeFound = named('NO_RECIPE_FOUND', 422, 'No recipe found')
/** The same 422 with the reason in `details` (a video post that is removed, private, blocked, or holds no recipe). */
export const noRecipeFoundBecause = (reason: string) => new HttpError(422, 'No recipe found', { code: 'NO_RECIPE_FOUND', details: [reason] })
/** The page did not come back (timeout, too large, not HTML, an error status): the reason is in `details`. */
export const pageNotFetched = (reason: string) => new HttpError(502, 'The page could not be fetched', { code: 'PAGE_NOT_FETCHED', details: [reason] })
export const ImportBusy = named('IMPORT_BUSY', 503, 'Import service busy, please retry')

// AI recipe generation (/api/ai-recipes); AiLimitReached is above with the usage limits
export const AiRecipesDisabled = named('AI_RECIPES_DISABLED', 403, 'AI recipes are not available for your account')
export const AiGenerationInProgress = named('AI_GENERATION_IN_PROGRESS', 409, 'An identical generation is in progress')
export const IdempotencyKeyReused = named('IDEMPOTENCY_KEY_REUSED', 422, 'This Idempotency-Key was already used with a different request')
/** The model declined the request (not food or drink, unsafe): its reason is in `details`. */
export const aiRequestDeclined = (reason: string) => new HttpError(422, 'The AI declined this request', { code: 'AI_REQUEST_DECLINED', details: [reason] })
/** The model's replies were not a usable recipe after the repair and grounding retries: why, attempt by attempt. */
export const aiUnusableRecipe = (details: string[]) => new HttpError(502, 'AI provider returned an unusable recipe', { code: 'AI_UNUSABLE_RECIPE', details })
/** The provider failed (5xx, a refused key, a broken answer, unreachable): the reason is in `details`. */
export const aiProviderFailed = (reason: string) => new HttpError(502, 'AI provider error', { code: 'AI_PROVIDER_ERROR', details: [reason] })
export const AiProviderNotConfigured = named('AI_PROVIDER_NOT_CONFIGURED', 503, 'AI provider not configured')
/** The provider rate-limited us (its 429): try again later; `retryAfter` is the provider's wait when it gave one. */
export const aiProviderBusy = (retryAfter = 30) => new HttpError(503, 'AI provider is busy, please retry', { code: 'AI_PROVIDER_BUSY', extra: { retryAfter } })
export const aiProviderTimeout = (seconds: number) => new HttpError(504, 'AI provider timed out', { code: 'AI_PROVIDER_TIMEOUT', details: [`no complete answer within ${seconds} s`] })
