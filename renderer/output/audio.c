/* renderer/output/audio.c - one audio track into an output file: decode -> resample
 * -> fifo -> AAC/Opus encoder, or packet copy (see audio.h). */
#include "renderer/output/audio.h"

#include <libavcodec/avcodec.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/mathematics.h>
#include <libswresample/swresample.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/status.h"
#include "renderer/output/media_open.h"

static const AVRational k_sample_tb = {1, MMD_AUDIO_RATE};

struct mmd_audio {
    AVFormatContext *oc; /* borrowed */
    AVFormatContext *ic;
    AVStream *ist, *ost;
    int stream;
    char *path;
    bool copy;
    bool pcm; /* encode pcm_s16le */
    bool has_end;
    bool done;       /* everything up to the end is written (and flushed) */
    AVPacket *pkt;   /* input packets; copy: the next one to write when have_pkt */
    bool have_pkt;
    /* copy */
    int64_t copy_zero; /* input ts that maps to output time 0 (ist tb) */
    int64_t copy_end;  /* input ts where the track ends (ist tb) */
    /* encode */
    AVCodecContext *dec, *enc;
    SwrContext *swr;
    AVAudioFifo *fifo;
    AVFrame *frame, *eframe;
    AVPacket *opkt;
    bool in_eof;
    int64_t skip, pad; /* output samples to drop from the file's start / silence first */
    int64_t sent;      /* samples sent to the encoder = output time in samples */
    int64_t end;       /* samples */
};

static const char *averr(int e, char *buf, size_t n)
{
    av_strerror(e, buf, n);
    return buf;
}

static bool is_pcm(enum AVCodecID id)
{
    return id >= AV_CODEC_ID_FIRST_AUDIO && id < AV_CODEC_ID_ADPCM_IMA_QT;
}

/* Codecs copied per container: what its players take, not all that libavformat
 * can store (it says yes to Opus in MOV, then refuses to write the header), and
 * only codecs with short packets (20-26 ms), because a copied track can only be
 * cut at a packet: FLAC's 4096-sample packets would run 90 ms past the video. */
static bool copy_fits(const char *muxer, enum AVCodecID id)
{
    if (!strcmp(muxer, "mp4") || !strcmp(muxer, "mov"))
        return id == AV_CODEC_ID_AAC || id == AV_CODEC_ID_MP3;
    if (!strcmp(muxer, "webm"))
        return id == AV_CODEC_ID_OPUS || id == AV_CODEC_ID_VORBIS;
    if (!strcmp(muxer, "matroska"))
        return id == AV_CODEC_ID_AAC || id == AV_CODEC_ID_MP3 || id == AV_CODEC_ID_OPUS ||
               id == AV_CODEC_ID_VORBIS;
    return false;
}

bool mmd_audio_can_copy(const AVOutputFormat *fmt, enum AVCodecID id, double offset)
{
    return offset == 0 && !is_pcm(id) && copy_fits(fmt->name, id) &&
           avformat_query_codec(fmt, id, FF_COMPLIANCE_NORMAL) == 1;
}

void mmd_audio_free(mmd_audio *a)
{
    if (!a)
        return;
    swr_free(&a->swr);
    if (a->fifo)
        av_audio_fifo_free(a->fifo);
    avcodec_free_context(&a->dec);
    avcodec_free_context(&a->enc);
    mmd_media_close(&a->ic);
    av_packet_free(&a->pkt);
    av_packet_free(&a->opkt);
    av_frame_free(&a->frame);
    av_frame_free(&a->eframe);
    free(a->path);
    free(a);
}

/* ---- open ---------------------------------------------------------------- */

static mmd_status open_encoder(mmd_audio *a, mmd_error *err)
{
    char eb[128];
    bool webm = !strcmp(a->oc->oformat->name, "webm");
    const char *what = a->pcm ? "PCM" : webm ? "Opus" : "AAC";
    const AVCodec *c = a->pcm ? avcodec_find_encoder(AV_CODEC_ID_PCM_S16LE)
                       : webm ? avcodec_find_encoder_by_name("libopus")
                              : avcodec_find_encoder(AV_CODEC_ID_AAC);
    if (!c)
        return mmd_fail(err, MMD_E_ENCODER, "no %s encoder in this libavcodec", what);
    AVCodecContext *e = a->enc = avcodec_alloc_context3(c);
    if (!e)
        return mmd_fail(err, MMD_E_ENCODER, "out of memory");
    e->sample_fmt = c->sample_fmts ? c->sample_fmts[0] : AV_SAMPLE_FMT_FLTP;
    for (const enum AVSampleFormat *p = c->sample_fmts; p && *p != AV_SAMPLE_FMT_NONE; p++)
        if (*p == AV_SAMPLE_FMT_FLTP || *p == AV_SAMPLE_FMT_FLT) {
            e->sample_fmt = *p;
            break;
        }
    e->sample_rate = MMD_AUDIO_RATE;
    av_channel_layout_default(&e->ch_layout, 2);
    if (!a->pcm)
        e->bit_rate = webm ? 128000 : 192000;
    e->time_base = k_sample_tb;
    if (a->oc->oformat->flags & AVFMT_GLOBALHEADER)
        e->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    int r = avcodec_open2(e, c, NULL);
    if (r < 0)
        return mmd_fail(err, MMD_E_ENCODER, "cannot open the audio encoder: %s", averr(r, eb, sizeof eb));
    if (avcodec_parameters_from_context(a->ost->codecpar, e) < 0)
        return mmd_fail(err, MMD_E_ENCODER, "out of memory");
    a->ost->time_base = e->time_base;
    return MMD_OK;
}

static mmd_status open_decoder(mmd_audio *a, const AVCodec *dc, mmd_error *err)
{
    if (!dc)
        return mmd_fail(err, MMD_E_UNSUPPORTED, "%s: no decoder for its audio (%s)", a->path,
                        avcodec_get_name(a->ist->codecpar->codec_id));
    a->dec = avcodec_alloc_context3(dc);
    if (!a->dec || avcodec_parameters_to_context(a->dec, a->ist->codecpar) < 0 ||
        avcodec_open2(a->dec, dc, NULL) < 0)
        return mmd_fail(err, MMD_E_UNSUPPORTED, "%s: cannot open the audio decoder", a->path);
    if (a->dec->sample_rate <= 0 || a->dec->ch_layout.nb_channels <= 0)
        return mmd_fail(err, MMD_E_BAD_VALUE, "%s: audio has no sample rate or channels", a->path);
    return MMD_OK;
}

/* Resampler from the decoder's format to the encoder's, and the fifo. */
static mmd_status open_resampler(mmd_audio *a, mmd_error *err)
{
    AVChannelLayout in_layout = {0}; /* av_channel_layout_copy uninits its destination first */
    if (a->dec->ch_layout.order == AV_CHANNEL_ORDER_UNSPEC)
        av_channel_layout_default(&in_layout, a->dec->ch_layout.nb_channels);
    else if (av_channel_layout_copy(&in_layout, &a->dec->ch_layout) < 0)
        return mmd_fail(err, MMD_E_ENCODER, "out of memory");
    int e = swr_alloc_set_opts2(&a->swr, &a->enc->ch_layout, a->enc->sample_fmt, MMD_AUDIO_RATE, &in_layout,
                                a->dec->sample_fmt, a->dec->sample_rate, 0, NULL);
    av_channel_layout_uninit(&in_layout);
    if (e < 0 || swr_init(a->swr) < 0)
        return mmd_fail(err, MMD_E_UNSUPPORTED, "%s: cannot resample this audio", a->path);
    a->fifo = av_audio_fifo_alloc(a->enc->sample_fmt, a->enc->ch_layout.nb_channels, 4096);
    a->frame = av_frame_alloc();
    a->eframe = av_frame_alloc();
    a->opkt = av_packet_alloc();
    if (!a->fifo || !a->frame || !a->eframe || !a->opkt)
        return mmd_fail(err, MMD_E_ENCODER, "out of memory");
    return MMD_OK;
}

/* The longest packet a copyable codec has, seconds: its frame size, or for
 * Vorbis (variable) the 1024 new samples of the usual long block. */
static double packet_seconds(const AVCodecParameters *p)
{
    int samples = p->frame_size > 0 ? p->frame_size : p->codec_id == AV_CODEC_ID_VORBIS ? 1024 : 0;
    if (samples <= 0 || p->sample_rate <= 0)
        return 1e9; /* unknown: never copied under a limit */
    return (double)samples / p->sample_rate;
}

static mmd_status open_all(mmd_audio *a, const mmd_audio_options *o, mmd_error *err)
{
    char eb[128];
    mmd_status st = mmd_media_open(a->path, MMD_MEDIA_AUDIO, &a->ic, err);
    if (st != MMD_OK)
        return st;
    int e = avformat_find_stream_info(a->ic, NULL);
    if (e < 0)
        return mmd_fail(err, MMD_E_BAD_STRUCTURE, "%s: cannot read audio: %s", a->path, averr(e, eb, sizeof eb));
    const AVCodec *dc = NULL;
    a->stream = av_find_best_stream(a->ic, AVMEDIA_TYPE_AUDIO, -1, -1, &dc, 0);
    if (a->stream < 0)
        return mmd_fail(err, MMD_E_BAD_STRUCTURE, "%s: no audio stream", a->path);
    a->ist = a->ic->streams[a->stream];
    a->copy = o->allow_copy && mmd_audio_can_copy(a->oc->oformat, a->ist->codecpar->codec_id, o->offset) &&
              (o->max_packet_s <= 0 || packet_seconds(a->ist->codecpar) <= o->max_packet_s);
    if (!a->copy && (st = open_decoder(a, dc, err)) != MMD_OK)
        return st;
    a->pkt = av_packet_alloc();
    a->ost = avformat_new_stream(a->oc, NULL);
    if (!a->pkt || !a->ost)
        return mmd_fail(err, MMD_E_ENCODER, "out of memory");
    if (a->copy) {
        if (avcodec_parameters_copy(a->ost->codecpar, a->ist->codecpar) < 0)
            return mmd_fail(err, MMD_E_ENCODER, "out of memory");
        a->ost->codecpar->codec_tag = 0;
        a->ost->time_base = a->ist->time_base;
        a->copy_zero = a->ist->start_time != AV_NOPTS_VALUE ? a->ist->start_time : 0;
        a->copy_end = INT64_MAX;
        return MMD_OK;
    }
    if ((st = open_encoder(a, err)) != MMD_OK || (st = open_resampler(a, err)) != MMD_OK)
        return st;
    double file_t0 = -o->offset; /* audio-file time at output time 0 */
    if (file_t0 >= 0)
        a->skip = llround(file_t0 * MMD_AUDIO_RATE);
    else
        a->pad = llround(-file_t0 * MMD_AUDIO_RATE);
    return MMD_OK;
}

mmd_status mmd_audio_open(mmd_audio **out, AVFormatContext *oc, const mmd_audio_options *o, mmd_error *err)
{
    mmd_audio *a = calloc(1, sizeof *a);
    if (!a || !(a->path = strdup(o->path))) {
        free(a);
        return mmd_fail(err, MMD_E_ENCODER, "out of memory");
    }
    a->oc = oc;
    a->pcm = o->pcm;
    mmd_status rc = open_all(a, o, err);
    if (rc) {
        mmd_audio_free(a);
        return rc;
    }
    *out = a;
    return MMD_OK;
}

void mmd_audio_set_end(mmd_audio *a, int64_t t, AVRational tb)
{
    a->has_end = true;
    if (a->copy)
        a->copy_end = a->copy_zero + av_rescale_q(t, tb, a->ist->time_base);
    else
        a->end = av_rescale_q(t, tb, k_sample_tb);
}

bool mmd_audio_is_copy(const mmd_audio *a) { return a->copy; }

const char *mmd_audio_codec_name(const mmd_audio *a)
{
    return a->copy ? avcodec_get_name(a->ist->codecpar->codec_id) : a->enc->codec->name;
}

/* ---- decode -> resample -> fifo ------------------------------------------ */

/* Resampled samples into the fifo, dropping the first `skip`; whether the
 * fifo took them. */
static bool fifo_push(mmd_audio *a, uint8_t **data, int count)
{
    if (count <= 0)
        return true;
    if (a->skip >= count) {
        a->skip -= count;
        return true;
    }
    if (av_audio_fifo_write(a->fifo, (void **)data, count) < count)
        return false;
    if (a->skip > 0) {
        av_audio_fifo_drain(a->fifo, (int)a->skip);
        a->skip = 0;
    }
    return true;
}

/* f NULL flushes the resampler. Whether it worked. */
static bool convert_push(mmd_audio *a, const AVFrame *f)
{
    int out_max = swr_get_out_samples(a->swr, f ? f->nb_samples : 0);
    if (out_max <= 0)
        return true;
    uint8_t **buf = NULL;
    if (av_samples_alloc_array_and_samples(&buf, NULL, a->enc->ch_layout.nb_channels, out_max,
                                           a->enc->sample_fmt, 0) < 0)
        return false;
    int got = swr_convert(a->swr, buf, out_max, f ? (const uint8_t **)f->extended_data : NULL,
                          f ? f->nb_samples : 0);
    bool ok = got >= 0 && fifo_push(a, buf, got);
    av_freep(&buf[0]);
    av_freep(&buf);
    return ok;
}

/* Decode until the fifo holds `want` samples or the file ends; MMD_E_BAD_STRUCTURE
 * when the decoder or resampler fails. */
static mmd_status decode_more(mmd_audio *a, int want, mmd_error *err)
{
    while (!a->in_eof && av_audio_fifo_size(a->fifo) < want) {
        int e = av_read_frame(a->ic, a->pkt);
        if (e < 0) {
            avcodec_send_packet(a->dec, NULL);
        } else if (a->pkt->stream_index != a->stream) {
            av_packet_unref(a->pkt);
            continue;
        } else {
            e = avcodec_send_packet(a->dec, a->pkt);
            av_packet_unref(a->pkt);
            if (e < 0 && e != AVERROR(EAGAIN) && e != AVERROR_INVALIDDATA)
                return mmd_fail(err, MMD_E_BAD_STRUCTURE, "%s: audio decoding failed", a->path);
        }
        for (;;) {
            int r = avcodec_receive_frame(a->dec, a->frame);
            if (r == AVERROR(EAGAIN))
                break;
            if (r == AVERROR_EOF) {
                if (!convert_push(a, NULL))
                    return mmd_fail(err, MMD_E_BAD_STRUCTURE, "%s: audio decoding failed", a->path);
                a->in_eof = true;
                break;
            }
            bool ok = r >= 0 && convert_push(a, a->frame);
            av_frame_unref(a->frame);
            if (!ok)
                return mmd_fail(err, MMD_E_BAD_STRUCTURE, "%s: audio decoding failed", a->path);
        }
    }
    return MMD_OK;
}

/* ---- encode ---------------------------------------------------------------- */

/* Encoded packets into the muxer. */
static mmd_status drain(mmd_audio *a, mmd_error *err)
{
    char eb[128];
    for (;;) {
        int e = avcodec_receive_packet(a->enc, a->opkt);
        if (e == AVERROR(EAGAIN) || e == AVERROR_EOF)
            return MMD_OK;
        if (e < 0)
            return mmd_fail(err, MMD_E_ENCODER, "audio encoder: %s", averr(e, eb, sizeof eb));
        av_packet_rescale_ts(a->opkt, a->enc->time_base, a->ost->time_base);
        a->opkt->stream_index = a->ost->index;
        if ((e = av_interleaved_write_frame(a->oc, a->opkt)) < 0)
            return mmd_fail(err, MMD_E_OUTPUT, "cannot write audio: %s", averr(e, eb, sizeof eb));
    }
}

/* Encode one frame of nb samples at output time `sent`: silence while pad
 * lasts, then the fifo (silence once the file has ended). */
static mmd_status encode_frame(mmd_audio *a, int nb, mmd_error *err)
{
    char eb[128];
    AVCodecContext *en = a->enc;
    AVFrame *f = a->eframe;
    av_frame_unref(f);
    f->nb_samples = nb;
    f->format = en->sample_fmt;
    f->sample_rate = en->sample_rate;
    if (av_channel_layout_copy(&f->ch_layout, &en->ch_layout) < 0 || av_frame_get_buffer(f, 0) < 0)
        return mmd_fail(err, MMD_E_ENCODER, "out of memory");
    av_samples_set_silence(f->extended_data, 0, nb, en->ch_layout.nb_channels, en->sample_fmt);
    int pos = 0;
    if (a->pad > 0) {
        int p = a->pad < nb ? (int)a->pad : nb;
        a->pad -= p;
        pos = p;
    }
    if (pos < nb) {
        mmd_status st = decode_more(a, nb - pos, err);
        if (st != MMD_OK)
            return st;
        int avail = av_audio_fifo_size(a->fifo);
        int take = avail < nb - pos ? avail : nb - pos;
        if (take > 0) {
            void *dst[AV_NUM_DATA_POINTERS];
            int planar = av_sample_fmt_is_planar(en->sample_fmt);
            int bps = av_get_bytes_per_sample(en->sample_fmt);
            int ch = en->ch_layout.nb_channels;
            for (int c = 0; c < (planar ? ch : 1); c++)
                dst[c] = f->extended_data[c] + (size_t)pos * (size_t)bps * (size_t)(planar ? 1 : ch);
            if (av_audio_fifo_read(a->fifo, dst, take) < take)
                return mmd_fail(err, MMD_E_ENCODER, "audio fifo read failed");
        }
    }
    f->pts = a->sent;
    a->sent += nb;
    int e = avcodec_send_frame(en, f);
    if (e < 0)
        return mmd_fail(err, MMD_E_ENCODER, "audio encoder: %s", averr(e, eb, sizeof eb));
    return drain(a, err);
}

static int frame_size(const mmd_audio *a)
{
    return a->enc->frame_size > 0 ? a->enc->frame_size : 1024;
}

/* One frame towards the end (the last one short if the encoder allows), or
 * the flush once the end is reached. */
static mmd_status encode_next(mmd_audio *a, mmd_error *err)
{
    char eb[128];
    int64_t left = a->end - a->sent;
    if (left <= 0) {
        int e = avcodec_send_frame(a->enc, NULL);
        if (e < 0 && e != AVERROR_EOF)
            return mmd_fail(err, MMD_E_ENCODER, "audio encoder flush: %s", averr(e, eb, sizeof eb));
        a->done = true;
        return drain(a, err);
    }
    int fs = frame_size(a);
    int nb = left < fs ? (int)left : fs;
    if (nb < fs && !(a->enc->codec->capabilities & (AV_CODEC_CAP_SMALL_LAST_FRAME | AV_CODEC_CAP_VARIABLE_FRAME_SIZE)))
        nb = fs;
    return encode_frame(a, nb, err);
}

/* ---- copy ------------------------------------------------------------------ */

/* Make sure pkt holds the next packet to copy, or set done. */
static mmd_status copy_peek(mmd_audio *a, mmd_error *err)
{
    char eb[128];
    while (!a->have_pkt && !a->done) {
        int e = av_read_frame(a->ic, a->pkt);
        if (e == AVERROR_EOF) {
            a->done = true;
            break;
        }
        if (e < 0)
            return mmd_fail(err, MMD_E_IO, "%s: audio read error: %s", a->path, averr(e, eb, sizeof eb));
        if (a->pkt->stream_index != a->stream || a->pkt->pts == AV_NOPTS_VALUE) {
            av_packet_unref(a->pkt);
            continue;
        }
        if (a->pkt->pts >= a->copy_end) { /* past the end */
            av_packet_unref(a->pkt);
            a->done = true;
            break;
        }
        a->have_pkt = true;
    }
    return MMD_OK;
}

static mmd_status copy_write(mmd_audio *a, mmd_error *err)
{
    char eb[128];
    AVPacket *p = a->pkt;
    p->pts -= a->copy_zero;
    if (p->dts != AV_NOPTS_VALUE)
        p->dts -= a->copy_zero;
    av_packet_rescale_ts(p, a->ist->time_base, a->ost->time_base);
    p->stream_index = a->ost->index;
    p->pos = -1;
    a->have_pkt = false;
    int e = av_interleaved_write_frame(a->oc, p);
    if (e < 0)
        return mmd_fail(err, MMD_E_OUTPUT, "cannot write audio: %s", averr(e, eb, sizeof eb));
    return MMD_OK;
}

/* ---- writing ----------------------------------------------------------------- */

mmd_status mmd_audio_next_time(mmd_audio *a, int64_t *t_us, mmd_error *err)
{
    mmd_status rc = a->copy ? copy_peek(a, err) : MMD_OK;
    if (rc)
        return rc;
    if (a->done)
        *t_us = INT64_MAX;
    else if (a->copy)
        *t_us = av_rescale_q(a->pkt->pts - a->copy_zero, a->ist->time_base, AV_TIME_BASE_Q);
    else
        *t_us = av_rescale_q(a->sent, k_sample_tb, AV_TIME_BASE_Q);
    return MMD_OK;
}

mmd_status mmd_audio_write_next(mmd_audio *a, mmd_error *err)
{
    if (!a->copy)
        return a->done ? MMD_OK : encode_next(a, err);
    mmd_status rc = copy_peek(a, err);
    return rc || a->done ? rc : copy_write(a, err);
}

mmd_status mmd_audio_write_to(mmd_audio *a, int64_t t, AVRational tb, mmd_error *err)
{
    mmd_status rc = MMD_OK;
    if (a->copy) {
        int64_t lim = a->copy_zero + av_rescale_q(t, tb, a->ist->time_base);
        for (;;) {
            if ((rc = copy_peek(a, err)) || !a->have_pkt)
                return rc;
            if (a->pkt->pts + (a->pkt->duration > 0 ? a->pkt->duration : 0) > lim)
                return MMD_OK;
            if ((rc = copy_write(a, err)))
                return rc;
        }
    }
    int64_t upto = av_rescale_q(t, tb, k_sample_tb);
    if (a->has_end && upto > a->end)
        upto = a->end;
    int fs = frame_size(a);
    while (!rc && !a->done && a->sent + fs <= upto)
        rc = encode_frame(a, fs, err);
    return rc;
}

mmd_status mmd_audio_finish(mmd_audio *a, mmd_error *err)
{
    mmd_status rc = MMD_OK;
    while (!rc && !a->done)
        rc = mmd_audio_write_next(a, err);
    return rc;
}
