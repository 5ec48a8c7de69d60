/* renderer/base/filemap.c - (device, inode, tag) -> index (see filemap.h). */
#include "renderer/base/filemap.h"

#include <stdint.h>
#include <stdlib.h>

struct mmd_file_map_slot {
    unsigned long long dev, ino;
    int tag;
    long value; /* -1: empty */
};

static size_t slot_of(const mmd_file_map *m, unsigned long long dev, unsigned long long ino, int tag)
{
    uint64_t h = (uint64_t)dev * 0x9E3779B97F4A7C15u ^ (uint64_t)ino * 0xC2B2AE3D27D4EB4Fu ^ (uint64_t)tag;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9u;
    h ^= h >> 29;
    size_t i = (size_t)h & (m->cap - 1);
    while (m->slots[i].value >= 0 && !(m->slots[i].dev == dev && m->slots[i].ino == ino && m->slots[i].tag == tag))
        i = (i + 1) & (m->cap - 1);
    return i;
}

long mmd_file_map_get(const mmd_file_map *m, unsigned long long dev, unsigned long long ino, int tag)
{
    return m->cap ? m->slots[slot_of(m, dev, ino, tag)].value : -1;
}

/* Twice the room (at least 16 slots), every entry placed again. */
static bool grow(mmd_file_map *m)
{
    mmd_file_map old = *m;
    m->cap = old.cap ? old.cap * 2 : 16;
    m->slots = malloc(m->cap * sizeof *m->slots);
    if (!m->slots) {
        *m = old;
        return false;
    }
    for (size_t i = 0; i < m->cap; i++)
        m->slots[i].value = -1;
    for (size_t i = 0; i < old.cap; i++)
        if (old.slots[i].value >= 0)
            m->slots[slot_of(m, old.slots[i].dev, old.slots[i].ino, old.slots[i].tag)] = old.slots[i];
    free(old.slots);
    return true;
}

bool mmd_file_map_put(mmd_file_map *m, unsigned long long dev, unsigned long long ino, int tag, long value)
{
    if ((m->count + 1) * 2 > m->cap && !grow(m))
        return false;
    mmd_file_map_slot *s = &m->slots[slot_of(m, dev, ino, tag)];
    m->count += s->value < 0;
    *s = (mmd_file_map_slot){dev, ino, tag, value};
    return true;
}

void mmd_file_map_free(mmd_file_map *m)
{
    free(m->slots);
    *m = (mmd_file_map){0};
}
