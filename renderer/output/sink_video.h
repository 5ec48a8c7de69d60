/* renderer/output/sink_video.h - a video file sink (libavcodec/libavformat), with audio.
 *
 *     mmd_video_options o; mmd_video_options_default(&o);
 *     o.path = "out.mp4"; o.width = 1920; o.height = 1080; o.fps_num = 30; o.fps_den = 1;
 *     mmd_error err;
 *     mmd_sink *s = mmd_sink_video_open(&o, &err);
 *     mmd_sink_write(s, rgba, w, h, stride, frame, &err) ... mmd_sink_close(s, &err);
 *
 * Codecs (renderer/output/codecs.h has the table): codec NULL picks the
 * container's default (MMD_CONTAINER_LIST, renderer/output/codecs.h: its codec,
 * and its codec with alpha).
 * h264, h264-10, h264-444, x264rgb, hevc take an x264/x265 preset. YUV output
 * is BT.709, limited range, and tagged so. The frame rate is the exact
 * rational fps_num/fps_den.
 *
 * Audio (audio_path): copied when mmd_audio_can_copy says so (offset 0 and a
 * codec the container's players take), else decoded, resampled to 48 kHz
 * stereo and re-encoded (AAC; Opus in WebM). Scene time s plays audio-file time s - audio_offset
 * (offset > 0: silence first; < 0: the file's start is trimmed). AVI and the
 * editing codecs (utvideo, prores) get 16-bit PCM, never a copy. The first
 * video frame is at scene time start_time. Audio ends with the video.
 *
 * Frames go into a bounded queue (converted to YUV 4:2:0 by write_frame for
 * yuv420p codecs, copied as RGBA for the others, which swscale converts) and are encoded on a
 * thread; write_frame blocks only while the queue is full. The file is written as
 * DIR/.NAME.part-PID and renamed on a successful close; abort deletes it.
 * close after an interrupt finalises what was encoded (a playable file).
 * chunk: video only with closed GOPs starting on a keyframe (for concat).
 */
#ifndef MMD_RENDERER_SINK_VIDEO_H
#define MMD_RENDERER_SINK_VIDEO_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "renderer/output/sink.h"

typedef struct mmd_video_options {
    const char *path;       /* MMD_CONTAINERS_SPACED (decides the container) */
    int width, height;
    int fps_num, fps_den;   /* default 30/1 */
    const char *codec;      /* NULL: default for the container (see above) */
    int crf;                /* < 0: default (h264 18, vp9 24); ignored by lossless codecs */
    const char *preset;     /* x264 preset for h264/x264rgb, NULL: veryfast */
    bool alpha;             /* keep the alpha channel (transparent background) */
    int threads;            /* encoder threads, 0 = auto (h264/x264rgb: 0 = one thread) */
    const char *audio_path; /* NULL: no audio */
    double audio_offset;    /* seconds */
    double start_time;      /* scene time of the first frame, seconds */
    bool chunk;             /* farm chunk: no audio, closed GOPs */
    const char *chunk_tag;  /* chunk: what concat checks (MMD_CHUNK_TAG_FORMAT), written as the
                               file's "comment" metadata; NULL none */
    int queue_frames;       /* queue depth, default 6 */
    const volatile sig_atomic_t *cancel; /* while *cancel is non-zero (a signal): queued frames not
                               yet encoded are dropped (never reported done) and close gives the
                               encoder MMD_VIDEO_STOP_GRACE_MS to hand back the frames it holds
                               before the trailer is written; NULL (default): never */
} mmd_video_options;

#define MMD_VIDEO_STOP_GRACE_MS 500

/* Time spent, for benchmarks (seconds) and the frame count. */
typedef struct mmd_video_stats {
    double writer_wait_s; /* write_frame blocked on a full queue */
    double encode_s;      /* encoder thread busy (convert + encode + mux) */
    int64_t frames;
} mmd_video_stats;

void mmd_video_options_default(mmd_video_options *o);
/* true when the path ends in a container of MMD_CONTAINER_LIST (case-insensitive). */
bool mmd_sink_video_is_video_path(const char *path);
/* NULL on failure, with err (NULL allowed) saying why: MMD_E_USAGE (codec,
 * container, preset), MMD_E_IO / MMD_E_UNSUPPORTED / MMD_E_BAD_* (the audio file),
 * MMD_E_OUTPUT (cannot create the file) or MMD_E_ENCODER. */
mmd_sink *mmd_sink_video_open(const mmd_video_options *o, mmd_error *err);
/* What open would refuse for the options alone, checked before any input is
 * loaded: MMD_E_USAGE (container/codec/alpha/preset, an odd size for a 4:2:0
 * or 4:2:2 codec, a frame larger than libavcodec takes), MMD_E_ENCODER when
 * the encoder is missing. Nothing is created. */
mmd_status mmd_sink_video_check(const mmd_video_options *o, mmd_error *err);
/* Bytes the sink will hold for o (its queue, the pixel conversion and the
 * encoder's frames): width x height x the codec row's sink_bytes
 * (codecs.h). 0 when o names no codec check would accept. Pure. */
uint64_t mmd_sink_video_memory(const mmd_video_options *o);
/* s must come from mmd_sink_video_open; valid until close/abort. */
void mmd_sink_video_stats(const mmd_sink *s, mmd_video_stats *out);

#endif
