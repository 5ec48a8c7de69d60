/* renderer/image/decode_child.h - stb_image decodes in child processes under a
 * wall-clock budget (internal to renderer/image/: decode.c is the only user).
 *
 *   mmd_decode_children(jobs, n, workers, limit_ms)
 *
 * A decoder bug (a loop, a crash) must not hang or kill the renderer, so stb
 * runs in forked children that the parent kills when one decode passes its
 * budget. A fork of a process that has a GL context costs milliseconds (page
 * tables, then copy-on-write faults), so the n jobs share up to `workers`
 * children that take jobs from a common queue: one fork per worker, not per
 * file, and the files decode side by side on several cores.
 */
#ifndef MMD_RENDERER_IMAGE_DECODE_CHILD_H
#define MMD_RENDERER_IMAGE_DECODE_CHILD_H

#include <stddef.h>
#include <stdint.h>

typedef struct mmd_decode_result {
    int status; /* MMD_OK or an mmd_status */
    int w, h;   /* what stb decoded */
    char why[96];
} mmd_decode_result;

typedef struct mmd_decode_job {
    const uint8_t *data; /* the file's bytes (in: a format stb_image takes, already sniffed) */
    size_t size;         /* <= INT_MAX */
    int w, h;            /* in: the size stbi_info gave, within the image limits */
    uint8_t *px;         /* in: w * h * 4 bytes; out: RGBA8 when res.status is MMD_OK */
    mmd_decode_result res;
} mmd_decode_job;

/* stb_image's RGBA8 decode of one job, in this process (fuzzing, and the body
 * of every child). */
void mmd_decode_here(mmd_decode_job *job);

/* Every job decoded in child processes, each under limit_ms of wall time
 * (MMD_E_LIMIT after it; a child that dies gives "the decoder crashed" for the
 * job it was on; jobs it never reached go to the next round). When no child
 * can be made, the jobs are decoded in this process. */
void mmd_decode_children(mmd_decode_job *jobs, size_t n, int workers, int limit_ms);

#endif
