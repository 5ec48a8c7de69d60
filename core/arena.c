/* core/arena.c - chained-block bump allocator (see arena.h). */
#include "core/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_ALIGN 32u
#define ARENA_BLOCK (64u * 1024u)

typedef struct block {
    struct block *next;
    size_t cap, used;
    _Alignas(32) unsigned char data[];
} block;

struct mmd_arena {
    block *head;
    size_t total;
};

mmd_arena *mmd_arena_create(void)
{
    return calloc(1, sizeof(mmd_arena));
}

void mmd_arena_destroy(mmd_arena *a)
{
    if (!a)
        return;
    block *b = a->head;
    while (b) {
        block *n = b->next;
        free(b);
        b = n;
    }
    free(a);
}

void *mmd_arena_alloc(mmd_arena *a, size_t size)
{
    if (!a || size > SIZE_MAX / 2)
        return NULL;
    size_t need = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (need == 0)
        need = ARENA_ALIGN;
    block *b = a->head;
    if (!b || b->cap - b->used < need) {
        size_t cap = need > ARENA_BLOCK ? need : ARENA_BLOCK;
        block *nb = aligned_alloc(ARENA_ALIGN, (sizeof(block) + cap + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1));
        if (!nb)
            return NULL;
        nb->cap = cap;
        nb->used = 0;
        if (b && need > ARENA_BLOCK) {
            /* big one-off allocation: keep the current block as head for small ones */
            nb->next = b->next;
            b->next = nb;
            nb->used = need;
            a->total += need;
            memset(nb->data, 0, need);
            return nb->data;
        }
        nb->next = b;
        a->head = nb;
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += need;
    a->total += need;
    memset(p, 0, need);
    return p;
}

void *mmd_arena_array(mmd_arena *a, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / 2 / size)
        return NULL;
    return mmd_arena_alloc(a, n * size);
}

char *mmd_arena_strndup(mmd_arena *a, const char *s, size_t n)
{
    char *p = mmd_arena_alloc(a, n + 1);
    if (p && n)
        memcpy(p, s, n);
    return p;
}

char *mmd_arena_strdup(mmd_arena *a, const char *s)
{
    return mmd_arena_strndup(a, s, strlen(s));
}

size_t mmd_arena_used(const mmd_arena *a)
{
    return a ? a->total : 0;
}

void mmd_arena_reset(mmd_arena *a)
{
    if (!a || !a->head)
        return;
    block *keep = a->head;
    while (keep->next) { /* keep the last (oldest) block, free the rest */
        block *n = keep->next;
        a->head = n;
        free(keep);
        keep = n;
    }
    keep->used = 0;
    a->total = 0;
}
