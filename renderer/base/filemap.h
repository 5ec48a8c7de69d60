/* renderer/base/filemap.h - a map from a file's identity (device, inode) and a
 * small tag to an index, in constant time per lookup.
 *
 *   mmd_file_map m = {0};
 *   mmd_file_map_put(&m, st.st_dev, st.st_ino, tag, index);   // false: no memory
 *   long i = mmd_file_map_get(&m, st.st_dev, st.st_ino, tag); // -1 when absent
 *   mmd_file_map_free(&m);
 *
 * The texture cache names each decoded file by (device, inode, wrap mode), and
 * a model may name tens of thousands of files: a linear search per lookup made
 * that quadratic. Open addressing with linear probing, kept at most half full;
 * hand-written because no Debian C library offers a small map of integer keys
 * without global state (hsearch has one table per process). */
#ifndef MMD_RENDERER_BASE_FILEMAP_H
#define MMD_RENDERER_BASE_FILEMAP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct mmd_file_map_slot mmd_file_map_slot;
typedef struct mmd_file_map {
    mmd_file_map_slot *slots;
    size_t cap, count;
} mmd_file_map;

long mmd_file_map_get(const mmd_file_map *m, unsigned long long dev, unsigned long long ino, int tag);
bool mmd_file_map_put(mmd_file_map *m, unsigned long long dev, unsigned long long ino, int tag, long value);
void mmd_file_map_free(mmd_file_map *m);

#endif
