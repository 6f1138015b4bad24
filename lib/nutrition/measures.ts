// Household measures SR28 lacks or gives in a form recipes do not mean, and what a bare count of a food means. Merged
// over the SR28 portions when foods.json is decoded (foods.ts), so foods.json itself stays SR28 data only. Gram weights
// here are typical retail sizes; each one is a rule for the README, not a measurement.
import { foodId } from './synonyms.js'

const OVERRIDES: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  11677: { each: 40 }, // a shallot
  '02004': { each: 0.2, leaf: 0.2 }, // a dried bay leaf
  '02011': { each: 0.1 }, // a whole clove
  15236: { fillet: 170, each: 170 }, // a salmon fillet portion (SR28's "fillet" is a whole side)
  15036: { fillet: 170, each: 170 }, // halibut
  15110: { fillet: 170, each: 170 }, // swordfish
  '07075': { link: 75, each: 75 }, // a smoked sausage link
  '02050': { each: 5 }, // a vanilla bean
  19177: { each: 2, packet: 7 }, // a gelatin sheet; an envelope of powder
  11246: { each: 90 }, // a leek (white and light green)
  18029: { slice: 45, each: 280 }, // a slice of sourdough or french bread; a baguette
  18374: { each: 42 }, // a cube of fresh yeast
  11467: { medium: 196 }, // yellow squash, as zucchini
  11492: { medium: 1100, large: 1500, small: 800 }, // spaghetti squash
  11485: { medium: 1200, large: 1600, small: 900 }, // butternut squash
  11291: { bunch: 100 }, // spring onions
  11297: { bunch: 60, sprig: 1 }, // parsley
  11165: { bunch: 60, sprig: 1 }, // cilantro
  '02064': { bunch: 30, sprig: 1 }, // mint
  '02044': { bunch: 40, sprig: 2, leaf: 0.5 }, // basil
  '02049': { sprig: 0.5, bunch: 15 }, // thyme
  '02063': { sprig: 1, bunch: 20 }, // rosemary
  '02045': { bunch: 30, sprig: 1 }, // dill
  '01001': { knob: 15 }, // a knob of butter
  11507: { medium: 130, each: 130 }, // a sweet potato
  11090: { head: 600 }, // broccoli
  11011: { bunch: 450 }, // asparagus
  11298: { medium: 170, each: 170 }, // a parsnip
  16015: { can: 250 }, // canned beans, drained (one 15-ounce can)
  16029: { can: 425 }, // canned beans with their liquid
  16051: { can: 425 },
  16043: { can: 425 },
  11531: { can: 411 }, // a 14.5-ounce can of tomatoes
  11529: { can: 411 },
  11693: { can: 411 },
  11549: { can: 227 }, // an 8-ounce can of tomato sauce
  12118: { can: 400 }, // coconut milk
  11424: { can: 425 }, // pumpkin puree
  '01293': { cup: 245 }, // Greek yogurt, as plain yogurt
  '01256': { cup: 245 },
  '01159': { cup: 225 }, // soft goat cheese
  12087: { cup: 137 }, // cashews, as dry-roasted
  '01022': { cup: 113 }, // shredded gouda, as other hard cheeses
  '05332': { cup: 225 }, // ground meats
  '05305': { cup: 225 },
  23572: { cup: 225 },
  10219: { cup: 225 },
  17224: { cup: 225 },
  '05011': { cup: 140 },
  15149: { cup: 145 },
  15139: { cup: 135 },
  12006: { cup: 170, tbsp: 12 }, // chia seeds
  '06976': { cup: 257 },
  '07029': { cup: 140 } // diced ham
}

/** What a bare count of a food means ("3 eggs": large eggs; "2 garlic": cloves), when not its medium size. */
const COUNTS: Readonly<Record<string, string>> = {
  '01123': 'large',
  '01124': 'large',
  '01125': 'large',
  11215: 'clove',
  11143: 'stalk',
  10123: 'slice',
  18069: 'slice',
  18075: 'slice',
  '05062': 'piece',
  '05096': 'thigh',
  '07036': 'link',
  '07019': 'link',
  15149: 'large',
  15236: 'fillet',
  15036: 'fillet',
  15110: 'fillet',
  '07029': 'slice',
  '01042': 'slice',
  11167: 'ear',
  '02004': 'leaf',
  18029: 'each'
}

/** Grams of one piece for names that mean a smaller or larger piece than the food's usual one. */
const PHRASE_PIECES: Readonly<Record<string, number>> = {
  'cherry tomato': 17,
  'grape tomato': 8,
  'baby carrot': 10,
  'mini marshmallow': 0.7,
  'baby bok choy': 100,
  baguette: 280
}

const byFood = <T>(table: Readonly<Record<string, T>>): ReadonlyMap<string, T> =>
  new Map(Object.entries(table).map(([id, value]) => [foodId(id), value]))

/** Portion weights that replace or complete SR28's, by food id. */
export const MEASURE_OVERRIDES = byFood(OVERRIDES)

/** Portion key a bare count of the food means, by food id. */
export const COUNT_MEASURES = byFood(COUNTS)

/** Grams of one piece, by synonym phrase (as written in synonyms.ts). */
export const PHRASE_PIECE_GRAMS: ReadonlyMap<string, number> = new Map(Object.entries(PHRASE_PIECES))
