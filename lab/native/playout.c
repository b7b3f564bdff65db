/* The C reference of the fast simulator's random playout, for `pitch bench ai` only.
 *
 * The same work as domain/ai/fastsim/kernel.py's POLICY_RANDOM on the default rules
 * (four seats in two sides, follow suit or trump, the first lead a trump, high, low,
 * jack and game to their capturers): hands as bit masks, uniform choice among the legal
 * cards by xorshift64*, trick winners, points. It exists to say how close the numba
 * kernel comes to compiled C on this machine; the service never runs it otherwise.
 *
 * Usage: playout TRUMP LEADER COUNT CARD... (TRUMP 0-3, the leading seat, then 4 * n card
 * indices 0-51 seat by seat, the numbering of tables.py). Prints "playouts cpu-seconds
 * side0-points side1-points".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int strength[52], suit_of[52], rank_of[52], pips[52], capture[52];
static uint64_t trump_mask, suit_mask[4];

static int bits(uint64_t m) { return __builtin_popcountll(m); }
static int nth_bit(uint64_t m, int k) { while (k--) m &= m - 1; return __builtin_ctzll(m); }

int main(int argc, char **argv) {
    if (argc < 5) return 2;
    int trump = atoi(argv[1]), first_leader = atoi(argv[2]);
    long count = atol(argv[3]);
    int n_cards = argc - 4, per_seat = n_cards / 4;
    uint64_t hands0[4] = {0, 0, 0, 0};
    for (int i = 0; i < n_cards; i++) hands0[i / per_seat] |= 1ULL << atoi(argv[4 + i]);
    for (int c = 0; c < 52; c++) {
        int s = c / 13, r = c % 13;
        suit_of[c] = s; rank_of[c] = r;
        strength[c] = s == trump ? r : -1;
        pips[c] = r == 8 ? 10 : r == 12 ? 4 : r == 11 ? 3 : r == 10 ? 2 : r == 9 ? 1 : 0;
        capture[c] = (s == trump && r == 9) ? 1 : 0; /* the jack of trump */
        if (s == trump) trump_mask |= 1ULL << c;
        suit_mask[s] |= 1ULL << c;
    }
    uint64_t x = 88172645463325252ULL;
    long totals[2] = {0, 0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (long n = 0; n < count; n++) {
        uint64_t hands[4] = {hands0[0], hands0[1], hands0[2], hands0[3]};
        int leader = first_leader, tricks = 0, high = -1, low = -1, high_side = 0, low_side = 0;
        int points[2] = {0, 0}, game[2] = {0, 0};
        while (hands[leader]) {
            int table[4], led = -1, best = 0;
            for (int p = 0; p < 4; p++) {
                int seat = (leader + p) % 4;
                uint64_t held = hands[seat], legal = held;
                if (p == 0) {
                    if (tricks == 0 && (held & trump_mask)) legal = held & trump_mask;
                } else if (held & suit_mask[led]) {
                    legal = held & (suit_mask[led] | trump_mask);
                }
                x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
                int c = nth_bit(legal, (int)(((x * 2685821657736338717ULL) >> 33) % (uint64_t)bits(legal)));
                hands[seat] &= ~(1ULL << c);
                table[p] = c;
                if (p == 0) led = suit_of[c];
                else {
                    int b = table[best];
                    if (strength[c] >= 0 ? (strength[b] < 0 || strength[c] > strength[b])
                                         : (strength[b] < 0 && suit_of[c] == led && rank_of[c] > rank_of[b]))
                        best = p;
                }
            }
            int winner = (leader + best) % 4, side = winner % 2;
            for (int p = 0; p < 4; p++) {
                int c = table[p];
                points[side] += capture[c];
                game[side] += pips[c];
                if (strength[c] >= 0) {
                    if (high < 0 || strength[c] > strength[high]) { high = c; high_side = side; }
                    if (low < 0 || strength[c] < strength[low]) { low = c; low_side = side; }
                }
            }
            leader = winner;
            tricks++;
        }
        if (high >= 0) points[high_side]++;
        if (low >= 0) points[low_side]++;
        if (game[0] != game[1]) points[game[0] > game[1] ? 0 : 1]++;
        totals[0] += points[0]; totals[1] += points[1];
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    printf("%ld %.6f %ld %ld\n", count, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, totals[0], totals[1]);
    return 0;
}
