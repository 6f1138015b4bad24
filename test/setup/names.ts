/** Every database the test suite creates starts with this, so leftovers are easy to find and drop. */
export const TEST_DATABASE_PREFIX = 'rp_test_'
