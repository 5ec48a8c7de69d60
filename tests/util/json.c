/* tests/util/json.c - see json.h. Recursive descent, depth-limited. */
#include "tests/util/json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct jp {
    const char *s;
    size_t len, pos;
    int depth;
} jp;

static json_value *parse_value(jp *p);

static void skip_ws(jp *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            p->pos++;
        else
            break;
    }
}

static json_value *new_value(json_type t)
{
    json_value *v = calloc(1, sizeof *v);
    if (v)
        v->type = t;
    return v;
}

static int hex4(jp *p, unsigned *out)
{
    if (p->len - p->pos < 4)
        return 0;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p->s[p->pos++];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return 0;
    }
    *out = v;
    return 1;
}

static size_t put_utf8(char *d, unsigned cp)
{
    if (cp < 0x80) {
        d[0] = (char)cp;
        return 1;
    } else if (cp < 0x800) {
        d[0] = (char)(0xC0 | (cp >> 6));
        d[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    } else if (cp < 0x10000) {
        d[0] = (char)(0xE0 | (cp >> 12));
        d[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        d[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    d[0] = (char)(0xF0 | (cp >> 18));
    d[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    d[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    d[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Parses a string starting at the opening quote; returns malloc'd UTF-8. */
static char *parse_string_raw(jp *p, size_t *out_len)
{
    if (p->pos >= p->len || p->s[p->pos] != '"')
        return NULL;
    p->pos++;
    /* output never exceeds input length (escapes shrink or stay equal: \uXXXX is 6 -> <=4,
     * a surrogate pair 12 -> 4) */
    size_t start = p->pos;
    size_t end = start;
    while (end < p->len && p->s[end] != '"') {
        if (p->s[end] == '\\')
            end++;
        end++;
    }
    if (end >= p->len)
        return NULL;
    char *d = malloc(end - start + 1);
    if (!d)
        return NULL;
    size_t n = 0;
    while (p->pos < p->len && p->s[p->pos] != '"') {
        char c = p->s[p->pos++];
        if (c != '\\') {
            d[n++] = c;
            continue;
        }
        if (p->pos >= p->len)
            goto fail;
        char e = p->s[p->pos++];
        switch (e) {
        case '"': d[n++] = '"'; break;
        case '\\': d[n++] = '\\'; break;
        case '/': d[n++] = '/'; break;
        case 'b': d[n++] = '\b'; break;
        case 'f': d[n++] = '\f'; break;
        case 'n': d[n++] = '\n'; break;
        case 'r': d[n++] = '\r'; break;
        case 't': d[n++] = '\t'; break;
        case 'u': {
            unsigned cp;
            if (!hex4(p, &cp))
                goto fail;
            if (cp >= 0xD800 && cp < 0xDC00 && p->len - p->pos >= 6 && p->s[p->pos] == '\\' &&
                p->s[p->pos + 1] == 'u') {
                size_t save = p->pos;
                unsigned lo;
                p->pos += 2;
                if (hex4(p, &lo) && lo >= 0xDC00 && lo < 0xE000)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                else
                    p->pos = save;
            }
            if (cp >= 0xD800 && cp < 0xE000)
                cp = 0xFFFD; /* lone surrogate: tolerate */
            n += put_utf8(d + n, cp);
            break;
        }
        default: d[n++] = e; break; /* tolerant */
        }
    }
    if (p->pos >= p->len)
        goto fail;
    p->pos++; /* closing quote */
    d[n] = '\0';
    if (out_len)
        *out_len = n;
    return d;
fail:
    free(d);
    return NULL;
}

static int push(json_value *v, json_value *item, char *key, size_t *cap)
{
    if (v->count == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        json_value **ni = realloc(v->items, nc * sizeof *ni);
        if (!ni)
            return 0;
        v->items = ni;
        if (v->type == JSON_OBJECT) {
            char **nk = realloc(v->keys, nc * sizeof *nk);
            if (!nk)
                return 0;
            v->keys = nk;
        }
        *cap = nc;
    }
    v->items[v->count] = item;
    if (v->type == JSON_OBJECT)
        v->keys[v->count] = key;
    v->count++;
    return 1;
}

static json_value *parse_container(jp *p, int object)
{
    json_value *v = new_value(object ? JSON_OBJECT : JSON_ARRAY);
    size_t cap = 0;
    if (!v)
        return NULL;
    p->pos++; /* [ or { */
    skip_ws(p);
    char close = object ? '}' : ']';
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
        return v;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(p);
        if (object) {
            key = parse_string_raw(p, NULL);
            if (!key)
                goto fail;
            skip_ws(p);
            if (p->pos >= p->len || p->s[p->pos] != ':') {
                free(key);
                goto fail;
            }
            p->pos++;
        }
        json_value *item = parse_value(p);
        if (!item) {
            free(key);
            goto fail;
        }
        if (!push(v, item, key, &cap)) {
            free(key);
            json_free(item);
            goto fail;
        }
        skip_ws(p);
        if (p->pos >= p->len)
            goto fail;
        char c = p->s[p->pos++];
        if (c == ',') {
            skip_ws(p);
            if (p->pos < p->len && p->s[p->pos] == close) { /* tolerate trailing comma */
                p->pos++;
                return v;
            }
            continue;
        }
        if (c == close)
            return v;
        goto fail;
    }
fail:
    json_free(v);
    return NULL;
}

static int match_word(jp *p, const char *w)
{
    size_t n = strlen(w);
    if (p->len - p->pos >= n && memcmp(p->s + p->pos, w, n) == 0) {
        p->pos += n;
        return 1;
    }
    return 0;
}

static json_value *parse_value(jp *p)
{
    skip_ws(p);
    if (p->pos >= p->len || p->depth > 200)
        return NULL;
    char c = p->s[p->pos];
    json_value *v = NULL;
    if (c == '{' || c == '[') {
        p->depth++;
        v = parse_container(p, c == '{');
        p->depth--;
        return v;
    }
    if (c == '"') {
        v = new_value(JSON_STRING);
        if (!v)
            return NULL;
        v->string = parse_string_raw(p, &v->string_len);
        if (!v->string) {
            free(v);
            return NULL;
        }
        return v;
    }
    if (match_word(p, "true")) {
        v = new_value(JSON_BOOL);
        if (v)
            v->number = 1;
        return v;
    }
    if (match_word(p, "false"))
        return new_value(JSON_BOOL);
    if (match_word(p, "null"))
        return new_value(JSON_NULL);
    if (match_word(p, "NaN")) {
        v = new_value(JSON_NUMBER);
        if (v)
            v->number = strtod("nan", NULL);
        return v;
    }
    /* number: copy the token into a NUL-terminated buffer for strtod */
    size_t start = p->pos;
    while (p->pos < p->len) {
        char d = p->s[p->pos];
        if ((d >= '0' && d <= '9') || d == '-' || d == '+' || d == '.' || d == 'e' || d == 'E' ||
            d == 'I' || d == 'n' || d == 'f' || d == 'i' || d == 't' || d == 'y')
            p->pos++;
        else
            break;
    }
    size_t n = p->pos - start;
    if (n == 0 || n > 63)
        return NULL;
    char buf[64];
    memcpy(buf, p->s + start, n);
    buf[n] = '\0';
    char *endp;
    double d = strtod(buf, &endp);
    if (endp != buf + n)
        return NULL;
    v = new_value(JSON_NUMBER);
    if (v)
        v->number = d;
    return v;
}

json_value *json_parse(const char *text, size_t len)
{
    if (!text)
        return NULL;
    jp p = {text, len, 0, 0};
    /* skip a UTF-8 BOM */
    if (len >= 3 && (unsigned char)text[0] == 0xEF && (unsigned char)text[1] == 0xBB &&
        (unsigned char)text[2] == 0xBF)
        p.pos = 3;
    json_value *v = parse_value(&p);
    if (!v)
        return NULL;
    skip_ws(&p);
    if (p.pos != p.len) {
        json_free(v);
        return NULL;
    }
    return v;
}

json_value *json_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0)
            break;
        n += got;
    }
    fclose(f);
    if (!buf)
        return NULL;
    json_value *v = json_parse(buf, n);
    free(buf);
    return v;
}

void json_free(json_value *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->count; i++) {
        json_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
    free(v);
}

const json_value *json_get(const json_value *obj, const char *key)
{
    if (!obj || obj->type != JSON_OBJECT || !key)
        return NULL;
    for (size_t i = 0; i < obj->count; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return obj->items[i];
    return NULL;
}

const json_value *json_at(const json_value *arr, size_t i)
{
    if (!arr || (arr->type != JSON_ARRAY && arr->type != JSON_OBJECT) || i >= arr->count)
        return NULL;
    return arr->items[i];
}

size_t json_len(const json_value *v)
{
    if (!v || (v->type != JSON_ARRAY && v->type != JSON_OBJECT))
        return 0;
    return v->count;
}

double json_num(const json_value *v)
{
    if (!v || (v->type != JSON_NUMBER && v->type != JSON_BOOL))
        return 0;
    return v->number;
}

const char *json_str(const json_value *v)
{
    if (!v || v->type != JSON_STRING)
        return NULL;
    return v->string;
}

const char *json_key(const json_value *obj, size_t i)
{
    if (!obj || obj->type != JSON_OBJECT || i >= obj->count)
        return NULL;
    return obj->keys[i];
}
