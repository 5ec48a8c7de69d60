/* core/xfile.c - DirectX .x reader (text, binary, MSZIP): tokens and objects.
 *
 * One token stream serves both encodings: text tokens (names, numbers, strings,
 * GUIDs, braces; ';' and ',' only separate) and binary tokens (name, string,
 * integer, integer/float lists, braces). Objects we need (Frame,
 * FrameTransformMatrix, Mesh, MeshNormals, MeshTextureCoords, MeshMaterialList,
 * Material, TextureFilename, MeshVertexColors) are parsed into raw per-mesh
 * arrays (xfile_build.c checks and flattens them); everything else, templates
 * included, is skipped by its braces. Every count is checked against the bytes
 * left (a number takes at least 2 text bytes or 4 binary bytes) before
 * anything is allocated; nesting is capped at MMD_X_MAX_DEPTH. Facts on the
 * layout: Microsoft's .x reference (templates, binary tokens), nanoem's
 * nanodxm (MMD's text conventions) and assimp's XFileParser (list tokens).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/xfile_parse.h"

static bool ok(const xp *p) { return mmd_rd_ok(&p->r); }

void xp_nomem(xp *p) { mmd_rd_fail(&p->r, MMD_E_NOMEM, "out of memory"); }

static bool is_space(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';' || c == ',' || c == 0 || c == 0x1a;
}

static bool is_delim(uint8_t c)
{
    return is_space(c) || c == '{' || c == '}' || c == '<' || c == '>' || c == '"' || c == '(' ||
           c == ')' || c == '[' || c == ']';
}

static bool is_num_start(uint8_t c) { return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.'; }

static void text_number(xp *p, xtok *t)
{
    mmd_reader *r = &p->r;
    char buf[64];
    size_t n = 0;
    bool integer = true;
    while (r->pos < r->len && !is_delim(r->base[r->pos])) {
        uint8_t c = r->base[r->pos];
        if (!(c >= '0' && c <= '9'))
            integer = false;
        if (n + 1 < sizeof buf)
            buf[n] = (char)c;
        n++;
        r->pos++;
    }
    t->s = r->base + t->at;
    t->n = n;
    t->kind = XT_NAME; /* not a number after all ("1st", "1.#QNAN"): a name */
    if (n + 1 > sizeof buf)
        return;
    buf[n] = 0;
    char *end;
    errno = 0;
    double d = strtod(buf, &end);
    if (end != buf + n || n == 0 || !isfinite(d) || fabs(d) > 3.4e38)
        return;
    t->kind = integer ? XT_INT : XT_FLOAT;
    t->num = d;
}

/* Text: skip separators and comments (idempotent). */
static void text_skip(xp *p)
{
    mmd_reader *r = &p->r;
    const uint8_t *b = r->base;
    for (;;) {
        while (r->pos < r->len && is_space(b[r->pos]))
            r->pos++;
        if (r->pos < r->len && (b[r->pos] == '#' || (b[r->pos] == '/' && r->pos + 1 < r->len && b[r->pos + 1] == '/'))) {
            while (r->pos < r->len && b[r->pos] != '\n')
                r->pos++;
            continue;
        }
        break;
    }
}

size_t xp_here(xp *p)
{
    if (!p->binary)
        text_skip(p);
    return p->r.pos;
}

static void text_next(xp *p, xtok *t)
{
    mmd_reader *r = &p->r;
    const uint8_t *b = r->base;
    text_skip(p);
    t->at = r->pos;
    t->s = NULL;
    t->n = 0;
    if (r->pos >= r->len) {
        t->kind = XT_EOF;
        return;
    }
    uint8_t c = b[r->pos];
    if (c == '{' || c == '}') {
        t->kind = c == '{' ? XT_OBRACE : XT_CBRACE;
        r->pos++;
    } else if (c == '<' || c == '"') {
        uint8_t close = c == '<' ? '>' : '"';
        size_t cap = c == '<' ? 64 : MMD_MAX_X_TEXT;
        size_t e = r->pos + 1;
        while (e < r->len && b[e] != close && e - r->pos <= cap)
            e++;
        if (e >= r->len || b[e] != close) {
            mmd_rd_fail_at(r, t->at, e >= r->len ? MMD_E_TRUNCATED : MMD_E_LIMIT, "unterminated %s",
                           c == '<' ? "GUID" : "string");
            t->kind = XT_EOF;
            return;
        }
        t->kind = c == '<' ? XT_GUID : XT_STRING;
        t->s = b + r->pos + 1;
        t->n = e - r->pos - 1;
        r->pos = e + 1;
    } else if (is_num_start(c)) {
        text_number(p, t);
    } else if (!is_delim(c)) {
        size_t e = r->pos;
        while (e < r->len && !is_delim(b[e]) && e - r->pos < MMD_MAX_X_TEXT)
            e++;
        t->kind = XT_NAME;
        t->s = b + r->pos;
        t->n = e - r->pos;
        r->pos = e;
        if (t->n == 8 && memcmp(t->s, "template", 8) == 0)
            t->kind = XT_TEMPLATE;
    } else {
        t->kind = XT_OTHER;
        r->pos++;
    }
}

/* Binary: a name or string body (u32 length + bytes). */
static void bin_text(xp *p, xtok *t)
{
    size_t at = p->r.pos;
    uint32_t n = mmd_rd_u32(&p->r);
    if (ok(p) && n > MMD_MAX_X_TEXT)
        mmd_rd_fail_at(&p->r, at, MMD_E_LIMIT, "text of %u bytes (limit %u)", n, MMD_MAX_X_TEXT);
    t->s = mmd_rd_bytes(&p->r, ok(p) ? n : 0);
    t->n = n;
}

static void bin_next(xp *p, xtok *t)
{
    mmd_reader *r = &p->r;
    for (;;) {
        t->at = r->pos;
        t->s = NULL;
        t->n = 0;
        if (!ok(p) || mmd_rd_left(r) == 0) {
            t->kind = XT_EOF;
            return;
        }
        if (p->list_left) {
            mmd_rd_fail(r, MMD_E_BAD_STRUCTURE, "%u values of a list left unread", p->list_left);
            t->kind = XT_EOF;
            return;
        }
        uint16_t code = mmd_rd_u16(r);
        switch (code) {
        case XB_NAME: t->kind = XT_NAME; bin_text(p, t); return;
        case XB_STRING:
            t->kind = XT_STRING;
            bin_text(p, t);
            (void)mmd_rd_u16(r); /* the terminating ';' or ',' token */
            return;
        case XB_INTEGER: t->kind = XT_INT; t->num = mmd_rd_u32(r); return;
        case XB_GUID: t->kind = XT_GUID; mmd_rd_skip(r, 16); return;
        case XB_INTEGER_LIST:
        case XB_FLOAT_LIST: {
            size_t at = r->pos;
            uint32_t n = mmd_rd_u32(r);
            size_t each = code == XB_INTEGER_LIST ? 4 : (size_t)p->fbytes;
            if (ok(p) && n > mmd_rd_left(r) / each)
                mmd_rd_fail_at(r, at, MMD_E_BAD_COUNT, "list of %u values needs %zu bytes, %zu left", n,
                               (size_t)n * each, mmd_rd_left(r));
            t->kind = code == XB_INTEGER_LIST ? XT_INT_LIST : XT_FLOAT_LIST;
            t->n = n;
            return;
        }
        case XB_OBRACE: t->kind = XT_OBRACE; return;
        case XB_CBRACE: t->kind = XT_CBRACE; return;
        case XB_COMMA:
        case XB_SEMICOLON: continue; /* separators carry nothing */
        case XB_TEMPLATE: t->kind = XT_TEMPLATE; return;
        default:
            if ((code >= XB_OPAREN && code <= XB_DOT) || (code >= XB_WORD && code <= XB_ARRAY)) {
                t->kind = XT_OTHER;
                return;
            }
            mmd_rd_fail_at(r, t->at, MMD_E_BAD_STRUCTURE, "unknown binary token %u", (unsigned)code);
            t->kind = XT_EOF;
            return;
        }
    }
}

void xp_next(xp *p, xtok *t)
{
    if (p->binary)
        bin_next(p, t);
    else
        text_next(p, t);
    if (!ok(p))
        t->kind = XT_EOF;
}

/* Binary: the next value of an integer (want_float false) or float list,
 * opening a list token when none is open. Text: the next number token. */
static double value(xp *p, bool want_float)
{
    mmd_reader *r = &p->r;
    if (!ok(p))
        return 0;
    if (!p->binary) {
        xtok t;
        text_next(p, &t);
        if (ok(p) && (t.kind == XT_INT || (want_float && t.kind == XT_FLOAT)))
            return t.num;
        if (ok(p))
            mmd_rd_fail_at(r, t.at, t.kind == XT_EOF ? MMD_E_TRUNCATED : MMD_E_BAD_STRUCTURE, "expected %s",
                           want_float ? "a number" : "an unsigned integer");
        return 0;
    }
    while (!p->list_left) {
        xtok t;
        bin_next(p, &t);
        if (!ok(p))
            return 0;
        if (t.kind == XT_INT && !want_float)
            return t.num;
        if (t.kind != (want_float ? XT_FLOAT_LIST : XT_INT_LIST)) {
            mmd_rd_fail_at(r, t.at, t.kind == XT_EOF ? MMD_E_TRUNCATED : MMD_E_BAD_STRUCTURE, "expected %s",
                           want_float ? "a float list" : "an integer");
            return 0;
        }
        p->list_left = (uint32_t)t.n;
        p->list_float = want_float;
    }
    if (p->list_float != want_float) {
        mmd_rd_fail(r, MMD_E_BAD_STRUCTURE, "expected %s, found a %s list", want_float ? "floats" : "integers",
                    p->list_float ? "float" : "integer");
        return 0;
    }
    p->list_left--;
    if (!want_float)
        return mmd_rd_u32(r);
    size_t at = r->pos;
    double d;
    if (p->fbytes == 8) {
        const uint8_t *b = mmd_rd_bytes(r, 8);
        uint64_t u = 0;
        for (int i = 7; b && i >= 0; i--)
            u = (u << 8) | b[i];
        memcpy(&d, &u, 8);
    } else {
        d = mmd_rd_f32(r);
    }
    if (ok(p) && (!isfinite(d) || fabs(d) > 3.4e38)) {
        mmd_rd_fail_at(r, at, MMD_E_BAD_VALUE, "non-finite or out-of-range float");
        return 0;
    }
    return ok(p) ? d : 0;
}

uint32_t xp_dword(xp *p)
{
    size_t at = xp_here(p);
    double d = value(p, false);
    if (ok(p) && d > 4294967295.0) {
        mmd_rd_fail_at(&p->r, at, MMD_E_BAD_VALUE, "integer %.0f does not fit 32 bits", d);
        return 0;
    }
    return (uint32_t)d;
}

void xp_floats(xp *p, float *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = (float)value(p, true);
}

uint32_t xp_count(xp *p, uint32_t numbers_per_record, uint32_t max, const char *what)
{
    size_t at = xp_here(p);
    uint32_t n = xp_dword(p);
    if (!ok(p))
        return 0;
    size_t per = (size_t)numbers_per_record * (p->binary ? 4 : 2);
    if (n > max) {
        mmd_rd_fail_at(&p->r, at, MMD_E_LIMIT, "%u %s exceed the limit %u", n, what, max);
        return 0;
    }
    if (per && n > (mmd_rd_left(&p->r) + 1) / per) {
        mmd_rd_fail_at(&p->r, at, MMD_E_BAD_COUNT, "%u %s need at least %zu bytes, %zu left", n, what,
                       (size_t)n * per, mmd_rd_left(&p->r));
        return 0;
    }
    return n;
}

/* Skip to the '}' closing the object whose '{' was just read. */
void xp_skip_object(xp *p)
{
    size_t depth = 1;
    size_t at = p->r.pos;
    while (ok(p) && depth) {
        xtok t;
        xp_next(p, &t);
        if (t.kind == XT_EOF) {
            if (ok(p))
                mmd_rd_fail_at(&p->r, at, MMD_E_TRUNCATED, "object not closed by '}'");
            return;
        }
        if (t.kind == XT_INT_LIST || t.kind == XT_FLOAT_LIST)
            mmd_rd_skip(&p->r, t.n * (t.kind == XT_INT_LIST ? 4u : (size_t)p->fbytes));
        else if (t.kind == XT_OBRACE)
            depth++;
        else if (t.kind == XT_CBRACE)
            depth--;
    }
}

/* After an object's type name: [name] [<GUID>] '{'. */
bool xp_open(xp *p, xtok *name)
{
    xtok t;
    xp_next(p, &t);
    name->s = NULL;
    name->n = 0;
    if (t.kind == XT_NAME) {
        *name = t;
        xp_next(p, &t);
    }
    if (t.kind == XT_GUID)
        xp_next(p, &t);
    if (t.kind != XT_OBRACE) {
        if (ok(p))
            mmd_rd_fail_at(&p->r, t.at, t.kind == XT_EOF ? MMD_E_TRUNCATED : MMD_E_BAD_STRUCTURE,
                           "expected '{' after the object type");
        return false;
    }
    return true;
}

bool xp_name_is(const xtok *t, const char *s)
{
    size_t n = strlen(s);
    return t->kind == XT_NAME && t->n == n && memcmp(t->s, s, n) == 0;
}

/* Inside an object after its data: child objects and references up to '}'.
 * child(p, ctx, type) parses one child after its type name; ref(p, ctx, name)
 * takes a `{ name }` reference (NULL: references are ignored). */
void xp_children(xp *p, void *ctx, void (*child)(xp *, void *, const xtok *),
                 void (*ref)(xp *, void *, const xtok *))
{
    if (++p->depth > MMD_X_MAX_DEPTH) {
        mmd_rd_fail(&p->r, MMD_E_LIMIT, "objects nested deeper than %d", MMD_X_MAX_DEPTH);
        return;
    }
    while (ok(p)) {
        xtok t;
        xp_next(p, &t);
        if (t.kind == XT_CBRACE)
            break;
        if (t.kind == XT_OBRACE) {
            xtok n = {0};
            xp_next(p, &n);
            xtok c = n;
            if (n.kind == XT_NAME)
                xp_next(p, &c);
            if (c.kind == XT_GUID)
                xp_next(p, &c);
            if (c.kind != XT_CBRACE) {
                if (ok(p))
                    mmd_rd_fail_at(&p->r, t.at, MMD_E_BAD_STRUCTURE, "reference not closed by '}'");
                break;
            }
            if (ref)
                ref(p, ctx, &n);
        } else if (t.kind == XT_NAME) {
            child(p, ctx, &t);
        } else {
            if (ok(p))
                mmd_rd_fail_at(&p->r, t.at, t.kind == XT_EOF ? MMD_E_TRUNCATED : MMD_E_BAD_STRUCTURE,
                               "expected a child object, a reference or '}'");
            break;
        }
    }
    p->depth--;
}

/* Unknown or unneeded child: skip it whole. */
void xp_skip_child(xp *p, void *ctx, const xtok *type)
{
    (void)ctx;
    (void)type;
    xtok name;
    if (xp_open(p, &name))
        xp_skip_object(p);
}
