/* tests/util/json.h - a small, tolerant JSON reader for tests and tools only.
 *
 *     json_value *v = json_parse(text, len);      NULL on a syntax error
 *     json_num(json_get(v, "vertex_count"))        0 when absent / not a number
 *     json_str(json_at(json_get(v, "bones"), 3))   NULL when absent / not a string
 *     json_free(v);                                frees the whole tree; NULL is fine
 *
 * Strings are UTF-8 (\uXXXX escapes incl. surrogate pairs are converted), NUL-terminated;
 * numbers are doubles. Lookup helpers accept NULL and return NULL/0, so chains are safe.
 * json_read_file loads and parses a whole file (NULL on I/O or syntax error).
 */
#ifndef MMD_TEST_JSON_H
#define MMD_TEST_JSON_H

#include <stddef.h>

typedef enum json_type {
    JSON_NULL,
    JSON_BOOL,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT
} json_type;

typedef struct json_value json_value;
struct json_value {
    json_type type;
    double number;          /* JSON_NUMBER; JSON_BOOL: 0 or 1 */
    char *string;           /* JSON_STRING (UTF-8, NUL-terminated) */
    size_t string_len;
    size_t count;           /* JSON_ARRAY / JSON_OBJECT element count */
    json_value **items;     /* JSON_ARRAY / JSON_OBJECT values */
    char **keys;            /* JSON_OBJECT keys (parallel to items) */
};

json_value *json_parse(const char *text, size_t len);
json_value *json_read_file(const char *path);
void json_free(json_value *v);

/* Object member by key (first match), array element by index; NULL if absent. */
const json_value *json_get(const json_value *obj, const char *key);
const json_value *json_at(const json_value *arr, size_t i);
/* Element count of an array/object (0 otherwise). */
size_t json_len(const json_value *v);
/* Number (bools as 0/1); 0 when v is NULL or another type. */
double json_num(const json_value *v);
/* String; NULL when v is NULL or not a string. */
const char *json_str(const json_value *v);
/* Object key of member i; NULL when out of range / not an object. */
const char *json_key(const json_value *obj, size_t i);

#endif
