/* McLoughlin's Fox and Geese solved whole by retrograde analysis (docs/mcloughlin.md).
 *
 * The rules are docs/rules.md section 1b, as src/reedboard/engine/fox_and_geese/ plays them:
 * one fox, geese that step forward (towards row 0) or sideways from the sideways points, a fox
 * that must jump and must finish its chain, the fox winning when `win_at` geese or fewer are
 * left or the geese cannot move, the geese winning when the fox cannot move.
 *
 * Method. A position is a set of geese G, the fox's hole f and the side to move. Captures only
 * lower the number of geese, so the positions fall into layers by goose count, solved from the
 * fewest geese up. Within a layer, number the holes so that every goose move takes a goose to
 * a lower bit (by row, and within a row the sideways points last): a goose move then lowers G
 * as a number, and visiting a layer's geese sets in increasing order (colex order, which is
 * also their rank) meets every successor first. For one geese set all fox holes are solved at
 * once, one bit each:
 *   geese to move: win at f when a goose move (not onto f) reaches a set G' where the fox to
 *     move at f loses (a lookup of G' in this layer);
 *   fox to move: wins at f by a step to an empty hole where the geese to move lose (the same
 *     G, just computed), or, when it can jump (it must), by a maximal chain ending where the
 *     geese to move lose (a lookup in a lower layer), or by reaching `win_at` geese.
 * Layer n keeps, per geese set, a mask over its 33 - n empty holes (one bit a position):
 *   geese-to-move-N.bin  whether the geese to move win (kept: lower layers' jumps read it);
 *   fox-to-move-N.part   whether the fox to move loses (read within the layer, then removed:
 *                        it follows in one ply from the geese-to-move files).
 * Masks are packed at 33 - n bits a set, in rank order, after a 4096-byte header.
 *
 * Commands (options: --diagonals alternate|all|none --sideways 7,13 --win-at 6):
 *   solve DIR --top N [--checkpoint-sets K]   layers win_at+1..N into DIR, resuming
 *   query DIR          positions on stdin (engine text form), prints who wins each
 *   strategy DIR OUT [--choose rear|fewest|first]  position on stdin (fox to move, geese winning): the
 *                      geese's winning strategy into OUT (see strategy())
 *   perft DEPTH        position on stdin, leaf count as the engine counts (chains by path)
 *   moves              positions on stdin, each line: the positions after every move
 *   sizes              per layer: n, sets, bits a set
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

typedef uint64_t u64;
typedef uint32_t u32;

#define NHOLES 33
#define ALL ((1ULL << NHOLES) - 1)
#define HEADER 4096
#define MAGIC "RBMCLGW1"
#define VERSION 1u

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
#include <stdarg.h>
static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* -- the board ---------------------------------------------------------------------------- */

static const char *MASK[7] = {"..###..", "..###..", "#######", "#######",
                              "#######", "..###..", "..###.."};
static int row_of[34], col_of[34], hole_at[7][7];
static int diagonals; /* 0 alternate, 1 all, 2 none */
static int sideways[34];
static int win_at = 6;

/* Per order bit (see order_of): the fox's steps as a mask, its jumps, the geese's targets. */
static int order_of[34], hole_of[NHOLES];
static u64 step_mask[NHOLES], over_mask[NHOLES];
static int njumps[NHOLES], jump_over[NHOLES][8], jump_land[NHOLES][8];
static int ntargets[NHOLES], target[NHOLES][8];

/* The mirror image left to right (column c to 6 - c), on order bits, when the rules are
 * symmetric so (the sideways points are): a set after its image in rank order copies it. */
static int symmetric;
static u64 mirror_table[5][128];

static const int DIRS[8][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1},
                               {-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

static int on_board(int r, int c) { return r >= 0 && r < 7 && c >= 0 && c < 7 && hole_at[r][c]; }

/* As engine/cross.py's _has_line: a line from `hole` one step in direction d. */
static int has_line(int hole, int d) {
    int r = row_of[hole], c = col_of[hole];
    if (!on_board(r + DIRS[d][0], c + DIRS[d][1])) return 0;
    if (d < 4) return 1;
    if (diagonals == 1) return 1;
    return diagonals == 0 && (r + c) % 2 == 0;
}

static void setup_board(void) {
    int h = 0;
    for (int r = 0; r < 7; r++)
        for (int c = 0; c < 7; c++) {
            hole_at[r][c] = 0;
            if (MASK[r][c] == '#') {
                h++;
                hole_at[r][c] = h;
                row_of[h] = r;
                col_of[h] = c;
            }
        }
    /* the order: by row, then the sideways points after the others, then by hole */
    int n = 0;
    for (int key = 0; key < 14; key++)
        for (h = 1; h <= NHOLES; h++)
            if (row_of[h] * 2 + (sideways[h] ? 1 : 0) == key) {
                order_of[h] = n;
                hole_of[n++] = h;
            }
    for (h = 1; h <= NHOLES; h++) {
        int b = order_of[h];
        step_mask[b] = over_mask[b] = 0;
        njumps[b] = ntargets[b] = 0;
        for (int d = 0; d < 8; d++) {
            if (!has_line(h, d)) continue;
            int mid = hole_at[row_of[h] + DIRS[d][0]][col_of[h] + DIRS[d][1]];
            step_mask[b] |= 1ULL << order_of[mid];
            if (row_of[mid] < row_of[h] || (sideways[h] && row_of[mid] == row_of[h]))
                target[b][ntargets[b]++] = order_of[mid];
            if (has_line(mid, d)) {
                int land = hole_at[row_of[h] + 2 * DIRS[d][0]][col_of[h] + 2 * DIRS[d][1]];
                jump_over[b][njumps[b]] = order_of[mid];
                jump_land[b][njumps[b]++] = order_of[land];
                over_mask[b] |= 1ULL << order_of[mid];
            }
        }
    }
    symmetric = 1;
    for (h = 1; h <= NHOLES; h++)
        if (sideways[h] != sideways[hole_at[row_of[h]][6 - col_of[h]]]) symmetric = 0;
    for (int c = 0; c < 5; c++)
        for (int v = 0; v < 128; v++) {
            u64 m = 0;
            for (int j = 0; j < 7; j++)
                if ((v >> j & 1) && 7 * c + j < NHOLES) {
                    int hh = hole_of[7 * c + j];
                    m |= 1ULL << order_of[hole_at[row_of[hh]][6 - col_of[hh]]];
                }
            mirror_table[c][v] = m;
        }
    /* every goose move must lower the order: then no position comes back (the game ends) */
    for (int b = 0; b < NHOLES; b++)
        for (int i = 0; i < ntargets[b]; i++)
            if (target[b][i] > b)
                die("sideways points %d and %d let a goose step back and forth: the game has"
                    " no end and cannot be solved by layers",
                    hole_of[b], hole_of[target[b][i]]);
}

/* -- ranks: colex order of n-subsets of the 33 order bits ---------------------------------- */

static u64 binom[34][34];
static u32 rank_table[5][128][34];

static void setup_ranks(void) {
    for (int a = 0; a < 34; a++) {
        binom[a][0] = 1;
        for (int b = 1; b < 34; b++) binom[a][b] = a ? binom[a - 1][b - 1] + binom[a - 1][b] : 0;
    }
    for (int c = 0; c < 5; c++)
        for (int v = 0; v < 128; v++)
            for (int k = 0; k < 34; k++) {
                u64 sum = 0;
                int i = k;
                for (int j = 0; j < 7; j++)
                    if (v >> j & 1) {
                        int bit = 7 * c + j;
                        if (bit < 34 && i + 1 < 34) sum += binom[bit][i + 1];
                        i++;
                    }
                rank_table[c][v][k] = (u32)sum;
            }
}

static inline u64 rank_of(u64 m) {
    u64 r = 0;
    int k = 0;
    for (int c = 0; c < 5; c++) {
        unsigned v = (unsigned)(m >> (7 * c)) & 127;
        r += rank_table[c][v][k];
        k += __builtin_popcount(v);
    }
    return r;
}

static inline u64 mirror_of(u64 m) {
    return mirror_table[0][m & 127] | mirror_table[1][m >> 7 & 127] |
           mirror_table[2][m >> 14 & 127] | mirror_table[3][m >> 21 & 127] |
           mirror_table[4][m >> 28 & 127];
}

static u64 unrank(u64 r, int n) {
    u64 m = 0;
    for (int i = n; i >= 1; i--) {
        int b = i - 1;
        while (b + 1 < NHOLES && binom[b + 1][i] <= r) b++;
        m |= 1ULL << b;
        r -= binom[b][i];
    }
    return m;
}

static inline u64 next_set(u64 x) { /* the next number with as many bits (Gosper) */
    u64 low = x & -x, ripple = x + low;
    return ripple | (((x ^ ripple) >> 2) / low);
}

/* -- packed masks ---------------------------------------------------------------------------- */

static inline u64 get_bits(const u64 *a, u64 index, int w) {
    u64 off = index * (u64)w, i = off >> 6;
    int s = (int)(off & 63);
    u64 v = a[i] >> s;
    if (s + w > 64) v |= a[i + 1] << (64 - s);
    return v & ((1ULL << w) - 1);
}

static inline void put_bits(u64 *a, u64 index, int w, u64 v) {
    u64 off = index * (u64)w, i = off >> 6;
    int s = (int)(off & 63);
    a[i] |= v << s;
    if (s + w > 64) a[i + 1] |= v >> (64 - s);
}

static inline u64 deposit(u64 v, u64 mask) {
#ifdef __BMI2__
    return _pdep_u64(v, mask);
#else
    u64 out = 0;
    while (mask) {
        u64 low = mask & -mask;
        if (v & 1) out |= low;
        v >>= 1;
        mask ^= low;
    }
    return out;
#endif
}

static inline u64 extract(u64 v, u64 mask) {
#ifdef __BMI2__
    return _pext_u64(v, mask);
#else
    u64 out = 0, bit = 1;
    while (mask) {
        u64 low = mask & -mask;
        if (v & low) out |= bit;
        bit <<= 1;
        mask ^= low;
    }
    return out;
#endif
}

/* A mask over the empty holes of `g`'s mirror image, turned into one over g's own. */
static inline u64 mirror_mask(u64 v, u64 g_image, u64 g) {
    return extract(mirror_of(deposit(v, ALL & ~g_image)), ALL & ~g);
}

/* -- layer files ----------------------------------------------------------------------------- */

struct header {
    char magic[8];
    u32 version, layer, win_at, diagonals;
    u64 sideways; /* bit h: hole h is a sideways point */
    u64 count;    /* geese sets: binom(33, layer), in rank order */
    u32 width;    /* bits a set: 33 - layer */
    u32 kind;     /* 0: geese to move win; 1: fox to move loses */
    u64 data_bytes;
    u64 checksum; /* of the data words, see mix() */
    unsigned char order[NHOLES]; /* the hole of each order bit */
};

struct layer {
    const u64 *gw; /* geese to move win, mapped */
    size_t length;
    int width;
};

static struct layer layers[34];
static const char *dir;

static u64 sideways_bits(void) {
    u64 s = 0;
    for (int h = 1; h <= NHOLES; h++)
        if (sideways[h]) s |= 1ULL << h;
    return s;
}

static void make_header(struct header *hd, int n, int kind) {
    memset(hd, 0, sizeof *hd);
    memcpy(hd->magic, MAGIC, 8);
    hd->version = VERSION;
    hd->layer = (u32)n;
    hd->win_at = (u32)win_at;
    hd->diagonals = (u32)diagonals;
    hd->sideways = sideways_bits();
    hd->count = binom[NHOLES][n];
    hd->width = (u32)(NHOLES - n);
    hd->kind = (u32)kind;
    hd->data_bytes = ((hd->count * hd->width + 63) / 64) * 8;
    for (int b = 0; b < NHOLES; b++) hd->order[b] = (unsigned char)hole_of[b];
}

static inline u64 mix(u64 h, u64 word) { /* the checksum: a multiply-xorshift chain */
    h = (h ^ word) * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 29);
}

static void path(char *out, size_t size, const char *name, int n, const char *suffix) {
    snprintf(out, size, "%s/%s-%d.%s", dir, name, n, suffix);
}

static int open_layer(int n) { /* maps geese-to-move-N.bin; 0 when missing */
    char p[4096];
    path(p, sizeof p, "geese-to-move", n, "bin");
    int fd = open(p, O_RDONLY);
    if (fd < 0) return 0;
    struct header want, got;
    make_header(&want, n, 0);
    if (pread(fd, &got, sizeof got, 0) != (ssize_t)sizeof got)
        die("%s: cut short", p);
    want.checksum = got.checksum;
    if (memcmp(&want, &got, sizeof want) != 0)
        die("%s: another variant, version or layer than asked for (remove it to solve again)", p);
    struct stat st;
    fstat(fd, &st);
    if ((u64)st.st_size != HEADER + got.data_bytes) die("%s: cut short", p);
    size_t length = HEADER + got.data_bytes;
    void *map = mmap(NULL, length, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) die("%s: cannot map: %s", p, strerror(errno));
    close(fd);
    layers[n].gw = (const u64 *)((const char *)map + HEADER);
    layers[n].length = length;
    layers[n].width = NHOLES - n;
    return 1;
}

/* -- the rules on one geese set ---------------------------------------------------------------- */

/* Whether the geese to move lose at (g, fox at bit `at`), the geese already counted `n` */
static inline int geese_lose(u64 g, int n, int at) {
    if (n <= win_at) return 1;
    const struct layer *L = &layers[n];
    u64 empty = ALL & ~g;
    int index = __builtin_popcountll(empty & ((1ULL << at) - 1));
    return !(get_bits(L->gw, rank_of(g), L->width) >> index & 1);
}

/* Whether the fox, lifted and jumping from `at` with `g` left (n geese), wins by some maximal
 * chain going on from here (depth: geese taken so far) */
static int chain_wins(int at, u64 g, int n, int depth) {
    int extended = 0;
    for (int j = 0; j < njumps[at]; j++) {
        int over = jump_over[at][j], land = jump_land[at][j];
        if ((g >> over & 1) && !(g >> land & 1)) {
            extended = 1;
            if (chain_wins(land, g & ~(1ULL << over), n - 1, depth + 1)) return 1;
        }
    }
    if (extended) return 0;
    return geese_lose(g, n, at);
}

static inline int can_jump(int f, u64 g) {
    if (!(over_mask[f] & g)) return 0;
    for (int j = 0; j < njumps[f]; j++)
        if ((g >> jump_over[f][j] & 1) && !(g >> jump_land[f][j] & 1)) return 1;
    return 0;
}

/* The fox to move wins at (g, f): `lose` holds the holes where the geese to move lose with g */
static inline int fox_wins(u64 g, int n, int f, u64 lose) {
    if (can_jump(f, g)) return chain_wins(f, g, n, 0);
    return (step_mask[f] & lose) != 0;
}

/* The fox-to-move mask (1: the fox loses) of g, over its empty holes, from the geese-to-move
 * mask `gw` of the same g (over its empty holes). */
static inline u64 fox_losses(u64 g, int n, u64 gw) {
    u64 empty = ALL & ~g;
    u64 lose = empty & ~deposit(gw, empty);
    u64 wins = 0, todo = empty;
    while (todo) {
        int f = __builtin_ctzll(todo);
        todo &= todo - 1;
        if (fox_wins(g, n, f, lose)) wins |= 1ULL << f;
    }
    return extract(empty & ~wins, empty);
}

/* -- solving a layer ------------------------------------------------------------------------- */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void write_all(int fd, const void *data, size_t size, const char *what) {
    const char *p = data;
    while (size) {
        ssize_t k = write(fd, p, size);
        if (k < 0) {
            if (errno == EINTR) continue;
            die("%s: %s", what, strerror(errno));
        }
        p += k;
        size -= (size_t)k;
    }
}

static void read_all(int fd, void *data, size_t size, off_t at, const char *what) {
    char *p = data;
    while (size) {
        ssize_t k = pread(fd, p, size, at);
        if (k <= 0) die("%s: cut short", what);
        p += k;
        size -= (size_t)k;
        at += k;
    }
}

static int open_part(const char *p, int n, int kind, u64 done) {
    int fd = open(p, O_RDWR | O_CREAT, 0644);
    if (fd < 0) die("%s: %s", p, strerror(errno));
    if (done == 0) {
        struct header hd;
        make_header(&hd, n, kind);
        char block[HEADER];
        memset(block, 0, sizeof block);
        memcpy(block, &hd, sizeof hd);
        if (ftruncate(fd, 0) != 0) die("%s: %s", p, strerror(errno));
        write_all(fd, block, HEADER, p);
    } else {
        struct header want, got;
        make_header(&want, n, kind);
        read_all(fd, &got, sizeof got, 0, p);
        if (memcmp(&want, &got, sizeof want) != 0) die("%s: not this layer's file", p);
        off_t keep = HEADER + (off_t)(done * (u64)(NHOLES - n) / 64 * 8);
        if (ftruncate(fd, keep) != 0) die("%s: %s", p, strerror(errno));
        if (lseek(fd, keep, SEEK_SET) != keep) die("%s: %s", p, strerror(errno));
    }
    return fd;
}

static void checkpoint(int n, int fd_gw, int fd_fl, u64 done, u64 hash) {
    char p[4096], q[4096];
    if (fsync(fd_gw) != 0 || fsync(fd_fl) != 0) die("layer %d: fsync: %s", n, strerror(errno));
    path(p, sizeof p, "layer", n, "checkpoint");
    path(q, sizeof q, "layer", n, "checkpoint.tmp");
    FILE *f = fopen(q, "w");
    if (!f) die("%s: %s", q, strerror(errno));
    fprintf(f, "%" PRIu64 " %" PRIu64 "\n", done, hash);
    if (fflush(f) != 0 || fsync(fileno(f)) != 0) die("%s: %s", q, strerror(errno));
    fclose(f);
    if (rename(q, p) != 0) die("%s: %s", p, strerror(errno));
}

static void solve_layer(int n, u64 checkpoint_sets) {
    int w = NHOLES - n;
    u64 count = binom[NHOLES][n];
    u64 words = (count * (u64)w + 63) / 64 + 2;
    char p_gw[4096], p_fl[4096], p_cp[4096], p_bin[4096];
    path(p_gw, sizeof p_gw, "geese-to-move", n, "part");
    path(p_fl, sizeof p_fl, "fox-to-move", n, "part");
    path(p_cp, sizeof p_cp, "layer", n, "checkpoint");
    path(p_bin, sizeof p_bin, "geese-to-move", n, "bin");

    u64 done = 0, hash = 0;
    FILE *cp = fopen(p_cp, "r");
    if (cp) {
        if (fscanf(cp, "%" SCNu64 " %" SCNu64, &done, &hash) != 2 || done % 64 || done > count)
            die("%s: damaged (remove it and the layer's .part files)", p_cp);
        fclose(cp);
    }
    u64 *fl = mmap(NULL, words * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (fl == MAP_FAILED) die("layer %d: %" PRIu64 " bytes of memory: %s", n, words * 8, strerror(errno));
    u64 *gwm = mmap(NULL, words * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (gwm == MAP_FAILED) die("layer %d: %" PRIu64 " bytes of memory: %s", n, words * 8, strerror(errno));
    int fd_gw = open_part(p_gw, n, 0, done);
    int fd_fl = open_part(p_fl, n, 1, done);
    if (done) {
        read_all(fd_fl, fl, done * (u64)w / 64 * 8, HEADER, p_fl);
        read_all(fd_gw, gwm, done * (u64)w / 64 * 8, HEADER, p_gw);
    }
    printf("layer %d sets %" PRIu64 " from %" PRIu64 "\n", n, count, done);
    fflush(stdout);

    double started = now(), last_note = started, last_checkpoint = started;
    u64 g = done < count ? unrank(done, n) : 0;
    for (u64 r = done; r < count; r += 64) {
        u64 end = r + 64 < count ? r + 64 : count;
        for (u64 i = r; i < end; i++, g = next_set(g)) {
            if (symmetric) {
                u64 image = mirror_of(g);
                if (image < g) { /* solved already: its masks mirrored */
                    u64 ri = rank_of(image);
                    put_bits(gwm, i, w, mirror_mask(get_bits(gwm, ri, w), image, g));
                    put_bits(fl, i, w, mirror_mask(get_bits(fl, ri, w), image, g));
                    continue;
                }
            }
            u64 empty = ALL & ~g;
            /* geese to move: every goose move's successor, looked up first to fetch early */
            u64 succ[5 * NHOLES];
            int move_to[5 * NHOLES], k = 0;
            for (u64 geese = g; geese;) {
                int s = __builtin_ctzll(geese);
                geese &= geese - 1;
                for (int j = 0; j < ntargets[s]; j++) {
                    int t = target[s][j];
                    if (g >> t & 1) continue;
                    u64 after = g ^ (1ULL << s) ^ (1ULL << t);
                    u64 ra = rank_of(after);
                    __builtin_prefetch(&fl[ra * (u64)w >> 6]);
                    succ[k] = ra;
                    move_to[k++] = s << 8 | t;
                }
            }
            u64 gw = 0;
            for (int j = 0; j < k; j++) {
                int s = move_to[j] >> 8, t = move_to[j] & 255;
                u64 x = get_bits(fl, succ[j], w); /* over the empty holes of the successor */
                u64 after_empty = empty ^ (1ULL << t) ^ (1ULL << s);
                int a = __builtin_popcountll(after_empty & ((1ULL << s) - 1));
                u64 y = (x & ((1ULL << a) - 1)) | ((x >> (a + 1)) << a); /* drop s */
                int b = __builtin_popcountll(empty & ((1ULL << t) - 1));
                gw |= (y & ((1ULL << b) - 1)) | ((y >> b) << (b + 1)); /* t: the fox there */
            }
            u64 fox = fox_losses(g, n, gw);
            put_bits(fl, i, w, fox);
            put_bits(gwm, i, w, gw);
        }
        size_t bytes = ((end - r) * (u64)w + 63) / 64 * 8;
        const u64 *block = &gwm[r * (u64)w / 64];
        write_all(fd_gw, block, bytes, p_gw);
        write_all(fd_fl, &fl[r * (u64)w / 64], bytes, p_fl);
        for (size_t i = 0; i < bytes / 8; i++) hash = mix(hash, block[i]);
        if (end < count && ((checkpoint_sets && (end - done) % checkpoint_sets == 0) ||
                            now() - last_checkpoint > 60.0)) {
            checkpoint(n, fd_gw, fd_fl, end, hash);
            last_checkpoint = now();
        }
        if (now() - last_note > 2.0) {
            last_note = now();
            printf("progress %d %" PRIu64 " %" PRIu64 " %.1f\n", n, end, count, last_note - started);
            fflush(stdout);
        }
    }
    /* done: the header's size and checksum, then the file under its final name */
    struct header hd;
    make_header(&hd, n, 0);
    hd.checksum = hash;
    if (pwrite(fd_gw, &hd, sizeof hd, 0) != (ssize_t)sizeof hd) die("%s: %s", p_gw, strerror(errno));
    if (fsync(fd_gw) != 0) die("%s: %s", p_gw, strerror(errno));
    close(fd_gw);
    close(fd_fl);
    if (rename(p_gw, p_bin) != 0) die("%s: %s", p_bin, strerror(errno));
    unlink(p_fl);
    unlink(p_cp);
    munmap(fl, words * 8);
    munmap(gwm, words * 8);
    printf("done %d %.1f\n", n, now() - started);
    fflush(stdout);
}

/* -- reading positions ------------------------------------------------------------------------ */

/* The engine's text form: 33 hole characters (F G .), a space, F or G. */
static int parse_position(const char *line, u64 *g, int *fox, int *geese_turn) {
    char holes[64], side[8];
    if (sscanf(line, "%63s %7s", holes, side) != 2 || strlen(holes) != NHOLES || strlen(side) != 1)
        return 0;
    *g = 0;
    *fox = -1;
    for (int h = 1; h <= NHOLES; h++) {
        char ch = holes[h - 1];
        if (ch == 'G')
            *g |= 1ULL << order_of[h];
        else if (ch == 'F') {
            if (*fox >= 0) return 0;
            *fox = order_of[h];
        } else if (ch != '.')
            return 0;
    }
    if (*fox < 0 || (side[0] != 'F' && side[0] != 'G')) return 0;
    *geese_turn = side[0] == 'G';
    return 1;
}

static void print_position(FILE *out, u64 g, int fox, int geese_turn) {
    char text[NHOLES + 3];
    for (int h = 1; h <= NHOLES; h++)
        text[h - 1] = order_of[h] == fox ? 'F' : (g >> order_of[h] & 1) ? 'G' : '.';
    text[NHOLES] = ' ';
    text[NHOLES + 1] = geese_turn ? 'G' : 'F';
    text[NHOLES + 2] = 0;
    fputs(text, out);
}

/* -- moves as the engine makes them (chains by path), for perft and the comparison ------------- */

#define MAX_MOVES 4096
struct moves {
    u64 g[MAX_MOVES];
    int fox[MAX_MOVES];
    int count;
};

static void chains(int at, u64 g, int depth, struct moves *out) {
    int extended = 0;
    for (int j = 0; j < njumps[at]; j++) {
        int over = jump_over[at][j], land = jump_land[at][j];
        if ((g >> over & 1) && !(g >> land & 1)) {
            extended = 1;
            chains(land, g & ~(1ULL << over), depth + 1, out);
        }
    }
    if (!extended && depth) {
        if (out->count == MAX_MOVES) die("more than %d moves", MAX_MOVES);
        out->g[out->count] = g;
        out->fox[out->count++] = at;
    }
}

static void generate(u64 g, int fox, int geese_turn, struct moves *out) {
    out->count = 0;
    if (__builtin_popcountll(g) <= win_at) return;
    if (!geese_turn) {
        chains(fox, g, 0, out);
        if (out->count) return;
        u64 free = step_mask[fox] & ~g;
        while (free) {
            int t = __builtin_ctzll(free);
            free &= free - 1;
            out->g[out->count] = g;
            out->fox[out->count++] = t;
        }
        return;
    }
    for (int s = 0; s < NHOLES; s++) {
        if (!(g >> s & 1)) continue;
        for (int j = 0; j < ntargets[s]; j++) {
            int t = target[s][j];
            if ((g >> t & 1) || t == fox) continue;
            out->g[out->count] = g ^ (1ULL << s) ^ (1ULL << t);
            out->fox[out->count++] = fox;
        }
    }
}

static u64 perft(u64 g, int fox, int geese_turn, int depth) {
    if (depth == 0) return 1;
    struct moves m;
    generate(g, fox, geese_turn, &m);
    if (depth == 1) return (u64)m.count;
    u64 total = 0;
    for (int i = 0; i < m.count; i++) total += perft(m.g[i], m.fox[i], !geese_turn, depth - 1);
    return total;
}

/* -- the geese's strategy, read off the layers ------------------------------------------------
 *
 * From a fox-to-move position the geese win, breadth first: every fox move (each distinct
 * position it leads to) and, for each geese-to-move position met the first time, one winning
 * goose move, chosen to keep the tree small (see choose_move). A position met again is not
 * expanded again (the strategy is a graph). Each answer is written as one record, u64 little
 * endian: bits 0-32 the geese (bit h-1: hole h), 33-38 the fox's hole, 39-44 the goose's hole,
 * 45-50 where it steps, 51-58 the ply (the start's fox move is ply 1). */

struct table { /* open addressing: key | value << 41, 0 empty */
    u64 *slot;
    u64 size, used;
};

static struct table seen;

static inline u64 hash_key(u64 k) {
    k ^= k >> 31;
    k *= 0x7FB5D329728EA185ULL;
    k ^= k >> 27;
    k *= 0x81DADEF4BC2DD44DULL;
    return k ^ (k >> 33);
}

#define KEY_BITS 41
#define KEY_MASK ((1ULL << KEY_BITS) - 1)

static u64 *table_find(u64 key) {
    u64 i = hash_key(key) & (seen.size - 1);
    while (seen.slot[i] && (seen.slot[i] & KEY_MASK) != key) i = (i + 1) & (seen.size - 1);
    return &seen.slot[i];
}

static void table_grow(void) {
    struct table old = seen;
    seen.size = old.size ? old.size * 2 : 1ULL << 20;
    seen.used = 0;
    seen.slot = calloc(seen.size, sizeof(u64));
    if (!seen.slot) die("strategy: %" PRIu64 " bytes of memory", seen.size * 8);
    for (u64 i = 0; i < old.size; i++)
        if (old.slot[i]) {
            *table_find(old.slot[i] & KEY_MASK) = old.slot[i];
            seen.used++;
        }
    free(old.slot);
}

/* whether `key` was seen; marks it seen (with `value`) if not */
static int table_add(u64 key, u64 value) {
    if ((seen.used + 1) * 10 > seen.size * 7) table_grow();
    u64 *s = table_find(key);
    if (*s) return 1;
    *s = key | value << KEY_BITS;
    seen.used++;
    return 0;
}

static inline u64 position_key(u64 g, int fox, int geese_turn) {
    return g | (u64)fox << 33 | (u64)geese_turn << 39 | 1ULL << 40;
}

/* The distinct positions the fox's moves from (g, fox) lead to (chains by their end). */
static int fox_successors(u64 g, int fox, u64 *out_g, int *out_fox) {
    struct moves m;
    generate(g, fox, 0, &m);
    int k = 0;
    for (int i = 0; i < m.count; i++) {
        int dup = 0;
        for (int j = 0; j < k && !dup; j++) dup = out_g[j] == m.g[i] && out_fox[j] == m.fox[i];
        if (!dup) {
            out_g[k] = m.g[i];
            out_fox[k++] = m.fox[i];
        }
    }
    return k;
}

static int fox_loses(u64 g, int n, int fox) {
    if (n <= win_at) return 0;
    u64 empty = ALL & ~g;
    u64 gw = get_bits(layers[n].gw, rank_of(g), NHOLES - n);
    return !fox_wins(g, n, fox, empty & ~deposit(gw, empty));
}

enum { CHOOSE_FIRST, CHOOSE_FEWEST, CHOOSE_REAR };
static int choose_rule = CHOOSE_REAR;

/* The goose move the strategy plays at (g, fox), geese to move, among the winning ones
 * (docs/mcloughlin.md has the sizes each rule gives):
 *   rear (the default): one whose position (fox to move) is in the strategy already, else the
 *     one stepping to the rearmost hole (the highest order bit: the geese's back rows come up
 *     first and the front stays closed), the first such;
 *   fewest: the one leaving the fox the fewest distinct moves, then the foremost target;
 *   first: the first (geese by order bit, their targets in table order).
 * Returns s << 8 | t, or -1 if none wins. */
static int choose_move(u64 g, int fox) {
    int n = __builtin_popcountll(g), best = -1;
    long best_cost = 0;
    u64 sg[MAX_MOVES];
    int sf[MAX_MOVES];
    for (int s = 0; s < NHOLES; s++) {
        if (!(g >> s & 1)) continue;
        for (int j = 0; j < ntargets[s]; j++) {
            int t = target[s][j];
            if ((g >> t & 1) || t == fox) continue;
            u64 after = g ^ (1ULL << s) ^ (1ULL << t);
            if (!fox_loses(after, n, fox)) continue;
            long cost = 0;
            if (choose_rule == CHOOSE_FEWEST)
                cost = (long)fox_successors(after, fox, sg, sf) * 64 + t;
            else if (choose_rule == CHOOSE_REAR)
                cost = *table_find(position_key(after, fox, 0)) ? -1 : NHOLES - t;
            if (best < 0 || cost < best_cost) {
                best = s << 8 | t;
                best_cost = cost;
            }
        }
    }
    return best;
}

static int strategy(const char *out_path) {
    for (int n = win_at + 1; n <= NHOLES; n++) open_layer(n);
    char line[256];
    if (!fgets(line, sizeof line, stdin)) die("strategy: a position on stdin");
    u64 g0;
    int f0, geese_turn;
    if (!parse_position(line, &g0, &f0, &geese_turn) || geese_turn)
        die("strategy: a position with the fox to move, not %s", line);
    int n0 = __builtin_popcountll(g0);
    for (int m = win_at + 1; m <= n0; m++)
        if (!layers[m].gw) die("layer %d is not solved in %s", m, dir);
    if (!fox_loses(g0, n0, f0)) die("strategy: the geese do not win this position");
    FILE *out = fopen(out_path, "wb");
    if (!out) die("%s: %s", out_path, strerror(errno));
    table_grow();
    /* the frontier: fox-to-move positions at this ply, and the next */
    u64 cap = 1 << 16, count = 1, next_count = 0, next_cap = 1 << 16;
    u64 *front = malloc(cap * 8), *next = malloc(next_cap * 8);
    front[0] = g0 | (u64)f0 << 33;
    table_add(position_key(g0, f0, 0), 0);
    u64 answers = 0, fox_positions = 1;
    int ply = 0, longest = 0;
    u64 sg[MAX_MOVES];
    int sf[MAX_MOVES];
    double started = now();
    while (count) {
        u64 answered = 0;
        for (u64 i = 0; i < count; i++) {
            u64 g = front[i] & ALL;
            int fox = (int)(front[i] >> 33);
            int k = fox_successors(g, fox, sg, sf);
            for (int j = 0; j < k; j++) {
                u64 gg = sg[j];
                int ff = sf[j], nn = __builtin_popcountll(gg);
                if (table_add(position_key(gg, ff, 1), 0)) continue;
                if (nn <= win_at || geese_lose(gg, nn, ff))
                    die("strategy: the fox wins after a move from a position the geese won");
                int mv = choose_move(gg, ff);
                if (mv < 0) die("strategy: no winning goose move where the geese win");
                int s = mv >> 8, t = mv & 255;
                u64 rec = 0;
                for (int b = 0; b < NHOLES; b++)
                    if (gg >> b & 1) rec |= 1ULL << (hole_of[b] - 1);
                rec |= (u64)hole_of[ff] << 33 | (u64)hole_of[s] << 39 | (u64)hole_of[t] << 45;
                rec |= (u64)(ply + 2) << 51;
                fwrite(&rec, 8, 1, out);
                answers++;
                answered++;
                longest = ply + 2;
                u64 after = gg ^ (1ULL << s) ^ (1ULL << t);
                if (table_add(position_key(after, ff, 0), 0)) continue;
                fox_positions++;
                struct moves m;
                generate(after, ff, 0, &m);
                if (!m.count) continue; /* the fox is trapped: the geese have won */
                if (next_count == next_cap) next = realloc(next, (next_cap *= 2) * 8);
                if (!next) die("strategy: out of memory");
                next[next_count++] = after | (u64)ff << 33;
            }
        }
        printf("ply %d fox %" PRIu64 " answers %" PRIu64 " %.1f\n", ply + 1, count, answered,
               now() - started);
        fflush(stdout);
        u64 *swap = front;
        front = next;
        next = swap;
        u64 c = cap;
        cap = next_cap;
        next_cap = c;
        count = next_count;
        next_count = 0;
        ply += 2;
    }
    if (fclose(out) != 0) die("%s: %s", out_path, strerror(errno));
    printf("answers %" PRIu64 " fox-positions %" PRIu64 " deepest %d seconds %.1f\n", answers,
           fox_positions, longest, now() - started);
    return 0;
}

/* -- the command line ------------------------------------------------------------------------- */

static void parse_sideways(const char *text) {
    memset(sideways, 0, sizeof sideways);
    const char *p = text;
    while (*p) {
        char *end;
        long h = strtol(p, &end, 10);
        if (end == p || h < 1 || h > NHOLES) die("--sideways %s: holes 1-33, comma-separated", text);
        sideways[h] = 1;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') die("--sideways %s: holes 1-33, comma-separated", text);
    }
}

static int query(void) {
    for (int n = win_at + 1; n <= NHOLES; n++) open_layer(n);
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        u64 g;
        int fox, geese_turn;
        if (!parse_position(line, &g, &fox, &geese_turn)) die("bad position %s", line);
        int n = __builtin_popcountll(g);
        if (n <= win_at) {
            puts("fox");
            continue;
        }
        for (int m = win_at + 1; m <= n; m++)
            if (!layers[m].gw) die("layer %d is not solved in %s", m, dir);
        int geese_win;
        if (geese_turn) {
            geese_win = !geese_lose(g, n, fox);
        } else {
            u64 empty = ALL & ~g;
            u64 gw = get_bits(layers[n].gw, rank_of(g), NHOLES - n);
            u64 lose = empty & ~deposit(gw, empty);
            geese_win = !fox_wins(g, n, fox, lose);
        }
        puts(geese_win ? "geese" : "fox");
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) die("usage: %s solve|query|strategy|perft|moves|sizes ...", argv[0]);
    const char *command = argv[1];
    int top = 17, depth = 0;
    u64 checkpoint_sets = 0;
    sideways[7] = sideways[13] = 1;
    int i = 2;
    const char *out_path = NULL;
    if (!strcmp(command, "strategy")) {
        if (argc < 4) die("strategy needs a directory and an output file");
        dir = argv[2];
        out_path = argv[3];
        i = 4;
    } else if (!strcmp(command, "solve") || !strcmp(command, "query")) {
        if (argc < 3) die("%s needs a directory", command);
        dir = argv[2];
        i = 3;
    } else if (!strcmp(command, "perft")) {
        if (argc < 3) die("perft needs a depth");
        depth = atoi(argv[2]);
        i = 3;
    }
    for (; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) die("%s needs a value", a);
        if (!strcmp(a, "--diagonals")) {
            if (!strcmp(v, "alternate")) diagonals = 0;
            else if (!strcmp(v, "all")) diagonals = 1;
            else if (!strcmp(v, "none")) diagonals = 2;
            else die("--diagonals %s: alternate, all or none", v);
        } else if (!strcmp(a, "--sideways")) parse_sideways(v);
        else if (!strcmp(a, "--win-at")) win_at = atoi(v);
        else if (!strcmp(a, "--top")) top = atoi(v);
        else if (!strcmp(a, "--checkpoint-sets")) checkpoint_sets = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--choose")) {
            if (!strcmp(v, "rear")) choose_rule = CHOOSE_REAR;
            else if (!strcmp(v, "fewest")) choose_rule = CHOOSE_FEWEST;
            else if (!strcmp(v, "first")) choose_rule = CHOOSE_FIRST;
            else die("--choose %s: rear, fewest or first", v);
        }
        else die("unknown argument %s", a);
        i++;
    }
    if (win_at < 0 || win_at > 31) die("--win-at %d: 0-31", win_at);
    if (checkpoint_sets % 64) die("--checkpoint-sets: a multiple of 64");
    setup_board();
    setup_ranks();
    if (!strcmp(command, "solve")) {
        if (top <= win_at || top > 32) die("--top %d: more than --win-at, at most 32", top);
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) die("%s: %s", dir, strerror(errno));
        for (int n = win_at + 1; n <= top; n++) {
            if (!open_layer(n)) {
                solve_layer(n, checkpoint_sets);
                if (!open_layer(n)) die("layer %d: not readable after solving", n);
            } else {
                printf("have %d\n", n);
                fflush(stdout);
            }
        }
        return 0;
    }
    if (!strcmp(command, "query")) return query();
    if (!strcmp(command, "strategy")) return strategy(out_path);
    if (!strcmp(command, "sizes")) {
        for (int n = win_at + 1; n <= NHOLES - 1; n++)
            printf("%d %" PRIu64 " %d\n", n, binom[NHOLES][n], NHOLES - n);
        return 0;
    }
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        u64 g;
        int fox, geese_turn;
        if (!parse_position(line, &g, &fox, &geese_turn)) die("bad position %s", line);
        if (!strcmp(command, "perft")) {
            printf("%" PRIu64 "\n", perft(g, fox, geese_turn, depth));
        } else if (!strcmp(command, "moves")) {
            struct moves m;
            generate(g, fox, geese_turn, &m);
            for (int j = 0; j < m.count; j++) {
                if (j) putchar(';');
                print_position(stdout, m.g[j], m.fox[j], !geese_turn);
            }
            putchar('\n');
        } else
            die("unknown command %s", command);
        fflush(stdout);
    }
    return 0;
}
