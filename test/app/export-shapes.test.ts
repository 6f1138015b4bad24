// The GDPR export must carry every column of what a user owns: a column added to (or renamed in) an exported table
// fails here until the export shape carries it or it is listed below as left out, with the reason. Each carried
// column keeps the column's wire type and null. A new table that references users must be exported or listed too.
import { getTableColumns, getTableName, is, type Table } from 'drizzle-orm'
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core'
import t from 'tap'
import { Type } from 'typebox'
import * as db from '../../db/schema/index.js'
import { pick, tableColumns } from '../../schemas/columns.js'
import * as gdpr from '../../schemas/gdpr.js'
import { PushSubscription } from '../../schemas/push.js'
import { NotificationSettings } from '../../schemas/users.js'

interface Schema { type?: string | string[], format?: string, anyOf?: Schema[], properties?: Record<string, Schema>, items?: Schema }

/** The properties of an object schema, of the items of an array of them, or of the object of a nullable one. */
function props (schema: unknown): Record<string, Schema> {
  const s = schema as Schema
  const object = s.items ?? s.anyOf?.find(member => member.properties != null) ?? s
  if (object.properties == null) throw new Error('not an object schema')
  return object.properties
}

interface Carried {
  /** Where the rows appear, e.g. `recipes[].revisions[]`. */
  at: string
  shape: Record<string, Schema>
  table: PgTable
  /** Columns left out, each with the reason. */
  omitted: Record<string, string>
  /** Columns shown under another key. */
  renamed?: Record<string, string>
  /** Keys that are not this table's columns (computed, nested, or another table's). */
  extra?: string[]
  /** Columns shown with null although the column has none, and why. */
  widened?: Record<string, string>
}

const YOU = 'you: the export is yours'
const DELIVERY = 'delivery diagnostics'

const carried: Carried[] = [
  {
    at: 'user',
    shape: props(gdpr.ExportUser),
    table: db.users,
    renamed: { planId: 'plan' },
    omitted: {
      usernameKey: 'the normalised username, a lookup key',
      password: 'secret: the password hash',
      oauthId: 'the provider\'s identifier of the linked account (decisions.md: never its identifiers)',
      resetToken: 'secret: password reset',
      resetTokenExpiry: 'secret: password reset',
      tokenVersion: 'secret: token revocation state',
      failedLoginAttempts: 'lockout state',
      failedLoginTimes: 'lockout state',
      lockedAt: 'lockout state',
      bannedAt: 'admins\' moderation record',
      banReason: 'admins\' moderation record',
      followerCount: 'counts of the followers section',
      followingCount: 'counts of the following section'
    }
  },
  { at: 'subscription', shape: props(gdpr.DataExport.properties.subscription), table: db.subscriptions, omitted: { id: 'internal row id', userId: YOU, updatedAt: 'row bookkeeping: startedAt and endsAt date it' } },
  { at: 'notificationSettings', shape: props(NotificationSettings), table: db.notificationSettings, omitted: { userId: YOU, updatedAt: 'row bookkeeping' } },
  { at: 'consent', shape: props(gdpr.Consent), table: db.consents, omitted: { userId: YOU }, widened: { updatedAt: 'null: no choices ever saved (no row)' } },
  { at: 'usage[]', shape: props(gdpr.ExportUsage), table: db.usage, omitted: { userId: YOU } },
  {
    at: 'pushSubscriptions[]',
    shape: props(PushSubscription),
    table: db.pushSubscriptions,
    extra: ['origin'],
    omitted: { userId: YOU, endpoint: 'a capability URL: shown as its origin', p256dh: 'secret: push key', auth: 'secret: push key', failures: DELIVERY }
  },
  {
    at: 'recipes[]',
    shape: props(gdpr.ExportRecipe),
    table: db.recipes,
    extra: ['tags', 'audience', 'averageRating', 'revisions'],
    omitted: {
      authorId: YOU,
      authorHidden: 'derived: whether the author is hidden',
      moderationNote: 'the moderator\'s note, for admins only',
      moderatedAt: 'admins\' moderation record',
      ingredientsText: 'derived from ingredients, for search',
      ingredientNames: 'derived from ingredients, for search',
      ingredientWords: 'derived from ingredients, for search',
      ratingSum: 'shown as averageRating'
    }
  },
  { at: 'recipes[].revisions[]', shape: props(gdpr.ExportRecipe.properties.revisions), table: db.recipeRevisions, omitted: { recipeId: 'nested in its recipe', editorId: 'who saved the edit of your recipe' } },
  { at: 'comments[]', shape: props(gdpr.ExportComment), table: db.comments, omitted: { userId: YOU, rootId: 'thread structure, derived from parentId', depth: 'thread structure, derived from parentId' } },
  { at: 'likes[]', shape: props(gdpr.ExportMark), table: db.likes, omitted: { userId: YOU } },
  { at: 'bookmarks[]', shape: props(gdpr.ExportMark), table: db.bookmarks, omitted: { userId: YOU } },
  { at: 'cooked[]', shape: props(gdpr.ExportMark), table: db.cookedRecipes, omitted: { userId: YOU } },
  { at: 'ratings[]', shape: props(gdpr.ExportRating), table: db.ratings, omitted: { userId: YOU } },
  { at: 'collections[]', shape: props(gdpr.ExportCollection), table: db.collections, extra: ['recipes'], omitted: { userId: YOU } },
  { at: 'collections[].recipes[]', shape: props(gdpr.ExportCollection.properties.recipes), table: db.collectionItems, omitted: { collectionId: 'nested in its collection' } },
  {
    at: 'following[], followers[]',
    shape: props(gdpr.ExportFollow),
    table: db.follows,
    extra: ['id', 'username'],
    omitted: { followerId: 'you, or the other user (id)', followingId: 'you, or the other user (id)' }
  },
  { at: 'notifications[]', shape: props(gdpr.ExportNotification), table: db.notifications, extra: ['actor'], omitted: { userId: YOU, actorId: 'shown as actor' } },
  { at: 'mealPlans[]', shape: props(gdpr.ExportMealPlan), table: db.mealPlans, extra: ['meals'], omitted: { userId: YOU } },
  { at: 'plannedMeals[], mealPlans[].meals[]', shape: props(gdpr.ExportPlannedMeal), table: db.plannedMeals, extra: ['plannedBy'], omitted: { userId: 'shown as plannedBy' } },
  {
    at: 'sharedMealPlans[]',
    shape: props(gdpr.ExportShare),
    table: db.sharedMealPlans,
    extra: ['family', 'user'],
    omitted: { sharedBy: YOU, familyId: 'shown as family', userId: 'shown as user' }
  },
  { at: 'groceryLists[]', shape: props(gdpr.ExportGroceryList), table: db.groceryLists, extra: ['items'], omitted: { userId: YOU } },
  {
    at: 'groceryLists[].items[]',
    shape: props(gdpr.ExportGroceryList.properties.items),
    table: db.groceryItems,
    omitted: { listId: 'nested in its list', sourceRecipeIds: 'provenance of a gathered line: recipes, possibly others\'' }
  },
  {
    at: 'families[]',
    shape: props(gdpr.ExportFamily),
    table: db.families,
    extra: ['role', 'joinedAt'],
    omitted: {
      description: 'the family\'s, not yours (your membership is)',
      inviteCode: 'a capability to join the family',
      createdBy: 'the family\'s, not yours (your membership is)',
      createdAt: 'the family\'s, not yours (your membership is)',
      updatedAt: 'the family\'s, not yours (your membership is)'
    }
  },
  { at: 'families[] (membership)', shape: props(gdpr.ExportFamily), table: db.familyMembers, extra: ['id', 'name'], omitted: { familyId: 'shown as id', userId: YOU } },
  { at: 'media[]', shape: props(gdpr.ExportMedia), table: db.media, extra: ['url'], omitted: { userId: YOU, sourceHash: 'deduplication hash of the bytes sent' } },
  {
    at: 'reports[]',
    shape: props(gdpr.ExportReport),
    table: db.reports,
    omitted: { reporterId: YOU, resolution: 'admins\' review', action: 'admins\' review', reviewedBy: 'admins\' review', reviewedAt: 'admins\' review' }
  },
  { at: 'supportTickets[]', shape: props(gdpr.ExportSupportTicket), table: db.supportTickets, omitted: { userId: YOU } },
  { at: 'ccpaRequests[]', shape: props(gdpr.ExportCcpaRequest), table: db.ccpaRequests, omitted: { userId: YOU } },
  { at: 'dataDeletionRequests[]', shape: props(gdpr.ExportDeletionRequest), table: db.dataDeletionRequests, omitted: { userId: YOU, error: 'internal failure detail' } },
  { at: 'imports[]', shape: props(gdpr.ExportImport), table: db.importLogs, omitted: { userId: YOU, method: 'parser diagnostics' } },
  {
    at: 'aiGenerations[]',
    shape: props(gdpr.ExportAiGeneration),
    table: db.aiGenerations,
    omitted: { userId: YOU, requestKey: 'idempotency hash of the request', allowancePeriod: 'allowance bookkeeping' }
  },
  {
    at: 'emails[]',
    shape: props(gdpr.ExportEmail),
    table: db.emailOutbox,
    omitted: {
      userId: YOU,
      to: 'your address when it was written',
      text: 'the body (the log entry only)',
      html: 'the body (the log entry only)',
      headers: 'the headers (the log entry only)',
      error: DELIVERY,
      attempts: DELIVERY,
      providerId: DELIVERY,
      lastAttemptAt: DELIVERY
    }
  }
]

/** Tables referencing users that no entry above carries: where else they are, or why not at all. */
const elsewhere = new Map<Table, string>([
  [db.recipeAudience, 'recipes[].audience'],
  [db.notificationPreferences, 'pushPreferences (a switch per notification type)'],
  [db.revokedTokens, 'secret: revoked token ids'],
  [db.idempotencyKeys, 'stored answers to retried requests, kept a day'],
  [db.recipeCreationKeys, 'deduplication keys of imports and AI generations'],
  [db.digestRuns, 'digest scheduling bookkeeping']
])

const nullable = (s: Schema): boolean =>
  s.type == null ? (s.anyOf ?? [s]).some(member => member === s || nullable(member)) : ([] as string[]).concat(s.type).includes('null')
const base = (s: Schema) => {
  const member = s.anyOf?.find(m => m.type !== 'null') ?? s
  return { type: ([] as Array<string | undefined>).concat(member.type).filter(type => type !== 'null'), format: member.format }
}

t.test('every exported table\'s columns are carried or left out for a reason', async t => {
  for (const entry of carried) {
    const columns = getTableColumns(entry.table)
    const wire = tableColumns(entry.table) as Record<string, Schema>
    const label = `${entry.at} (${getTableName(entry.table)})`
    const shown = Object.keys(columns).filter(key => !(key in entry.omitted))
    const keyOf = (column: string) => entry.renamed?.[column] ?? column
    t.same(Object.keys(entry.shape).sort(), [...shown.map(keyOf), ...(entry.extra ?? [])].sort(), `${label}: keys`)
    t.same(Object.keys(entry.omitted).filter(key => !(key in columns)), [], `${label}: every column left out exists`)
    for (const column of shown) {
      const schema = entry.shape[keyOf(column)]
      if (schema == null || columns[column].columnType === 'PgJsonb') continue
      t.equal(nullable(schema), !columns[column].notNull || column in (entry.widened ?? {}), `${label}: ${column} null`)
      t.same(base(schema), base(wire[column]), `${label}: ${column} type`)
    }
  }
})

t.test('every table that references users is exported or accounted for', async t => {
  const references = (table: PgTable) => getTableConfig(table).foreignKeys.some(fk => fk.reference().foreignTable === db.users)
  const tables = Object.values(db as Record<string, unknown>).filter((value): value is PgTable => is(value, PgTable))
  const accounted = new Set<Table>([...carried.map(entry => entry.table), ...elsewhere.keys()])
  t.same(tables.filter(table => references(table) && !accounted.has(table)).map(table => getTableName(table)), [])
})

t.test('every section of the export is checked above', async t => {
  const checked = new Set(carried.map(entry => entry.at.split(/[[.]/)[0]).concat(['following', 'followers', 'pushPreferences', 'plannedMeals']))
  t.same(Object.keys(gdpr.DataExport.properties).filter(key => !checked.has(key)), ['exportedAt', 'format'])
})

t.test('a refinement cannot drop a column\'s null', async t => {
  const users = tableColumns(db.users)
  // @ts-expect-error bio is nullable: a refinement must admit null too
  const wrong = pick(users, ['bio'], { bio: Type.String() })
  const right = pick(users, ['bio', 'id'], { bio: 'About me', id: Type.String({ minLength: 1 }) })
  t.same(wrong.bio, { type: 'string' }, 'the types check refinements; at run time they replace the column')
  t.same(right.bio, { type: ['string', 'null'], description: 'About me' })
  t.same(Object.keys(right), ['bio', 'id'], 'in the order asked')
})
