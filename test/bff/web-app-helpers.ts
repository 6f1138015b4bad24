// The recipe app in Chromium: the real API and proxy (browser-helpers.ts), one browser per test file, a page that
// fails the test on any script error or CSP violation, sign-in through the form, and screenshots of a screen at phone
// and desktop widths in one folder under the OS temp dir (named in a comment of the test's output).
import { mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import type { Test } from 'tap'
import type { TestUser } from '../helper.js'
import { launchChromium, startBrowserBff, type BrowserBff } from './browser-helpers.js'
import type { ProxyOptions } from './helpers.js'

export { chromiumMissing } from './browser-helpers.js'

export const SCREENSHOT_DIR = join(tmpdir(), 'recipes-web-app-screenshots')
export const PHONE = { width: 390, height: 844 }
export const DESKTOP = { width: 1280, height: 800 }

export interface WebApp {
  browser: Browser
  bff: BrowserBff
  /** The proxy's origin, where the app is loaded. */
  origin: string
  /** A fresh browser context (its own cookies) with one page, checked for script errors. */
  open: (t: Test) => Promise<AppPage>
}

export interface AppPage {
  context: BrowserContext
  page: Page
  /** Script errors and CSP violations seen so far (the page expects none). */
  errors: string[]
  /** Loads `path` and waits until the app has decided who is signed in. */
  go: (path: string) => Promise<void>
  signIn: (user: Pick<TestUser, 'username' | 'password'>) => Promise<void>
  /** Saves `<name>-phone.png` and `<name>-desktop.png` of the current screen. */
  shoot: (name: string) => Promise<void>
  /** Waits until the screen of the current address is drawn with its data. */
  ready: () => Promise<void>
  /** Waits for the live region to say `text` (a string: exactly; a RegExp: matching). */
  said: (text: string | RegExp) => Promise<void>
}

/** Waits until the image `selector` names has loaded (a real picture, not a broken one). */
export async function imageLoaded (page: Page, selector: string): Promise<void> {
  await page.waitForFunction(selector => {
    const img = (globalThis as any).document.querySelector(selector)
    return img != null && img.complete === true && img.naturalWidth > 0
  }, selector)
}

export async function startWebApp (t: Test, options: ProxyOptions = {}): Promise<WebApp> {
  const browser = await launchChromium(t)
  const bff = await startBrowserBff(t, options)
  await mkdir(SCREENSHOT_DIR, { recursive: true })
  t.comment(`screenshots: ${SCREENSHOT_DIR}`)
  const origin = bff.pageOrigin

  async function open (t: Test): Promise<AppPage> {
    const context = await browser.newContext({ viewport: DESKTOP })
    t.teardown(async () => await context.close())
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', err => errors.push(err.message))
    // Chromium logs every 4xx answer as "Failed to load resource"; the app expects some (401 while signed out).
    page.on('console', message => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource: the server responded')) errors.push(message.text())
    })
    // Functions run in the page (a string would be evaluated there, which the page's CSP refuses); no DOM types here.
    const ready = async () => {
      await page.waitForFunction(() => { const { document, location } = globalThis as any; return document.body.dataset.ready === location.pathname + location.search })
    }
    const settled = async () => {
      await page.waitForSelector('body[data-state="signed-in"], body[data-state="signed-out"]', { state: 'attached' })
      await ready()
    }
    return {
      context,
      page,
      errors,
      ready,
      go: async path => { await page.goto(`${origin}${path}`); await settled() },
      signIn: async user => {
        await page.goto(`${origin}/`)
        await settled()
        await page.fill('#identifier', user.username)
        await page.fill('#password', user.password)
        await page.click('#signin-button')
        await page.waitForSelector('body[data-state="signed-in"]', { state: 'attached' })
        await page.waitForSelector('#recipe-list', { state: 'attached' })
        await ready()
      },
      shoot: async name => {
        for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
          await page.setViewportSize(viewport)
          const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)
          if (width > viewport.width) errors.push(`${name}: ${width} px wide, wider than the ${size}'s ${viewport.width}`)
          await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${size}.png`), fullPage: true })
        }
        await page.setViewportSize(DESKTOP)
      },
      said: async text => {
        await page.waitForFunction(([source, flags, exact]) => {
          const now: string = (globalThis as any).document.getElementById('status')?.textContent ?? ''
          return flags == null ? now === exact : new RegExp(source, flags).test(now)
        }, typeof text === 'string' ? ['', null, text] as const : [text.source, text.flags, ''] as const)
      }
    }
  }
  return { browser, bff, origin, open }
}
