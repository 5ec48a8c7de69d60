/* core/arena.h - bump allocator owning everything one model/motion/scene holds.
 *
 * Blocks are 32-byte aligned (cglm under AVX). mmd_arena_array checks n*size
 * for overflow. Freeing the arena frees every allocation made from it.
 */
#ifndef MMD_CORE_ARENA_H
#define MMD_CORE_ARENA_H

#include <stddef.h>

typedef struct mmd_arena mmd_arena;

mmd_arena *mmd_arena_create(void);
void mmd_arena_destroy(mmd_arena *a); /* NULL is a no-op */
/* Zeroed memory, NULL on overflow/out of memory. size 0 returns a valid pointer. */
void *mmd_arena_alloc(mmd_arena *a, size_t size);
void *mmd_arena_array(mmd_arena *a, size_t n, size_t size);
char *mmd_arena_strdup(mmd_arena *a, const char *s);
char *mmd_arena_strndup(mmd_arena *a, const char *s, size_t n);
/* Total bytes handed out (for limits and diagnostics). */
size_t mmd_arena_used(const mmd_arena *a);
/* Forget every allocation but keep the first block (per-frame scratch). */
void mmd_arena_reset(mmd_arena *a);

#endif
