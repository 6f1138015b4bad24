import t from 'tap'
import { endpointAllowed } from '../../lib/push-endpoint.js'

// The production default list (config.ts) plus the kinds of entries tests and self-hosted services use.
const ORIGINS = [
  'https://fcm.googleapis.com',
  'https://*.push.services.mozilla.com',
  'https://web.push.apple.com',
  'https://*.notify.windows.com',
  'http://127.0.0.1:*',
  'https://push.example.org:8443',
  'http://[::1]:*'
]

t.test('endpoints of listed push services are allowed', async t => {
  for (const endpoint of [
    'https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b',
    'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk',
    'https://web.push.apple.com/QGuQyavXutnMH',
    'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB',
    'https://FCM.GoogleAPIs.com/fcm/send/x',
    'https://fcm.googleapis.com:443/fcm/send/x',
    'http://127.0.0.1:54321/push/1',
    'http://127.0.0.1/push/1',
    'https://push.example.org:8443/p',
    'http://[::1]:9000/p'
  ]) t.ok(endpointAllowed(endpoint, ORIGINS), endpoint)
})

t.test('everything else is refused', async t => {
  const refused: Array<[string, string]> = [
    ['https://fcm.googleapis.com.evil.com/fcm/send/x', 'a listed host as a prefix of another'],
    ['https://evilfcm.googleapis.com/x', 'no wildcard on an exact entry'],
    ['https://evil.com/fcm.googleapis.com', 'a listed host in the path'],
    ['https://evil.com/?u=https://fcm.googleapis.com', 'a listed host in the query'],
    ['https://fcm.googleapis.com@evil.com/x', 'userinfo that looks like the host'],
    ['https://user:pass@fcm.googleapis.com/x', 'credentials on a listed host'],
    ['https://fcm.googleapis.com\\@evil.com/x', 'a backslash (parsers disagree on it)'],
    ['http://fcm.googleapis.com/fcm/send/x', 'wrong scheme'],
    ['ftp://fcm.googleapis.com/x', 'another scheme'],
    ['https:fcm.googleapis.com/x', 'no slashes'],
    ['https://fcm.googleapis.com:8443/x', 'a port the entry does not name'],
    ['https://fcm.googleapis.com./x', 'trailing dot'],
    ['https://push.services.mozilla.com/x', 'a wildcard entry is subdomains only'],
    ['https://evilpush.services.mozilla.com/x', 'a wildcard entry needs a dot before the suffix'],
    ['https://push.example.org/p', 'the default port where the entry names another'],
    ['https://142.250.74.46/fcm/send/x', 'an IP literal of a listed service'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['http://127.0.0.2:80/x', 'another loopback address'],
    ['http://[::ffff:127.0.0.1]:80/x', 'a mapped IPv4 address'],
    ['https://evil.example/push', 'an unlisted host'],
    [' https://fcm.googleapis.com/x', 'surrounding whitespace'],
    ['https://fcm.google\napis.com/x', 'a newline the URL parser would drop'],
    ['not a url', 'not a URL'],
    ['', 'empty']
  ]
  for (const [endpoint, why] of refused) t.notOk(endpointAllowed(endpoint, ORIGINS), `${why}: ${JSON.stringify(endpoint)}`)
})

t.test('the entry decides: ports, wildcards, and nothing for an empty or malformed list', async t => {
  t.ok(endpointAllowed('http://127.0.0.1:8080/x', ['http://127.0.0.1:8080']), 'exact port')
  t.notOk(endpointAllowed('http://127.0.0.1:8081/x', ['http://127.0.0.1:8080']), 'another port')
  t.notOk(endpointAllowed('http://127.0.0.1:8080/x', ['http://127.0.0.1']), 'an entry without a port is the default port only')
  t.ok(endpointAllowed('https://fcm.googleapis.com/x', ['https://fcm.googleapis.com:443']), 'an explicit default port')
  t.ok(endpointAllowed('https://a.b.example.com/x', ['https://*.example.com']), 'deeper subdomains match a wildcard')
  t.notOk(endpointAllowed('https://example.com/x', ['https://*.example.com']), 'the bare domain does not')
  t.ok(endpointAllowed('https://example.com/x', ['https://*.example.com', 'https://example.com']), 'unless listed')
  t.ok(endpointAllowed('https://fcm.googleapis.com/x', ['HTTPS://FCM.GOOGLEAPIS.COM/']), 'entries are case-insensitive')
  t.notOk(endpointAllowed('https://fcm.googleapis.com/x', []), 'an empty list allows nothing')
  t.notOk(endpointAllowed('https://fcm.googleapis.com/x', ['fcm.googleapis.com', '*', 'https://*', 'https://fcm.googleapis.com/path']), 'malformed entries allow nothing')
})
