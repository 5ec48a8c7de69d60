/* tools/mkchunk.c - write a test video of frames A..B through the real video sink.
 *
 *   mkchunk OUT --frames A-B [--size WxH] [--fps N[/D]] [--codec NAME] [--whole] [--audio F]
 *
 * Each frame is a pattern that depends only on its scene frame number (a
 * gradient that moves with the frame plus a bar whose position encodes it), so
 * chunks of one range and a whole-range video show the same pictures. Chunk
 * mode (video only, closed GOPs) unless --whole. For tests/cli/concat.sh and
 * tools/bench_chunks.sh.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/log.h>

#include "renderer/output/sink_video.h"

static void pattern(uint8_t *px, int w, int h, int64_t f)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = px + ((size_t)y * (size_t)w + (size_t)x) * 4;
            p[0] = (uint8_t)(x * 255 / (w > 1 ? w - 1 : 1) + f * 7);
            p[1] = (uint8_t)(y * 255 / (h > 1 ? h - 1 : 1) + f * 3);
            p[2] = (uint8_t)((x + y + f * 5) & 0xff);
            p[3] = 255;
            if (x / 4 == (int)(f % (w / 4 > 0 ? w / 4 : 1)))
                p[0] = p[1] = p[2] = 255;
        }
}

int main(int argc, char **argv)
{
    mmd_video_options o;
    mmd_video_options_default(&o);
    o.width = 64;
    o.height = 48;
    o.chunk = true;
    av_log_set_level(AV_LOG_ERROR);
    long long a = -1, b = -1;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(s, "--whole"))
            o.chunk = false;
        else if (!strcmp(s, "--frames") && v && sscanf(v, "%lld-%lld", &a, &b) == 2)
            i++;
        else if (!strcmp(s, "--size") && v && sscanf(v, "%dx%d", &o.width, &o.height) == 2)
            i++;
        else if (!strcmp(s, "--fps") && v) {
            if (sscanf(v, "%d/%d", &o.fps_num, &o.fps_den) < 1)
                goto usage;
            i++;
        } else if (!strcmp(s, "--codec") && v) {
            o.codec = v;
            i++;
        } else if (!strcmp(s, "--audio") && v) {
            o.audio_path = v;
            i++;
        } else if (s[0] != '-' && !o.path)
            o.path = s;
        else
            goto usage;
    }
    if (!o.path || a < 0 || b < a || o.width < 8 || o.height < 8 || o.width > 4096 || o.height > 4096 ||
        o.fps_num <= 0 || o.fps_den <= 0)
        goto usage;
    o.start_time = (double)a * o.fps_den / o.fps_num;
    mmd_error err;
    mmd_sink *sink = mmd_sink_video_open(&o, &err);
    if (!sink) {
        fprintf(stderr, "mkchunk: %s\n", err.msg);
        return 1;
    }
    uint8_t *px = malloc((size_t)o.width * (size_t)o.height * 4);
    if (!px) {
        mmd_sink_abort(sink);
        return 1;
    }
    for (long long f = a; f <= b; f++) {
        pattern(px, o.width, o.height, f);
        if (mmd_sink_write(sink, px, o.width, o.height, (size_t)o.width * 4, f, &err) != MMD_OK) {
            fprintf(stderr, "mkchunk: frame %lld: %s\n", f, err.msg);
            mmd_sink_abort(sink);
            free(px);
            return 1;
        }
    }
    free(px);
    if (mmd_sink_close(sink, &err) != MMD_OK) {
        fprintf(stderr, "mkchunk: %s\n", err.msg);
        return 1;
    }
    return 0;
usage:
    fprintf(stderr, "usage: mkchunk OUT --frames A-B [--size WxH] [--fps N[/D]] [--codec NAME] [--whole]"
                    " [--audio FILE]\n");
    return 1;
}
