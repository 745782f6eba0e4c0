/* options_auth: --header, --user, --bearer and --stomp-login (OT_CUSTOM
 * rows of option_rows.c). Each renders what goes on the wire once, into
 * run_config's headers or STOMP login, and what every output may show
 * instead (auth_shown, headers_shown: secrets as "***"). No message here
 * ever quotes a value that may be a secret. */
#include "cli/option_table.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>

#include "cli/options.h"

/* Headers that frame the request or name its body: rpcbench writes them,
 * and a second copy would make the request ambiguous to the server. */
static const char *const framing[] = {"host", "content-length", "content-type",
                                      "transfer-encoding", "connection"};

/* A name whose value is a credential: shown as "***". */
static int secret_name(const char *name, size_t n)
{
    static const char *const words[] = {"authorization", "cookie", "token", "key", "secret",
                                        "auth", "pass", "session"};
    char low[64];
    snprintf(low, sizeof low, "%.*s", (int)(n < sizeof low ? n : sizeof low - 1), name);
    for (char *p = low; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strstr(low, words[i]))
            return 1;
    return 0;
}

/* RFC 9110's token characters. */
static int token_char(int c)
{
    return isalnum(c) || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* 1 when s holds no byte a header line or a STOMP header cannot carry. */
static int plain_value(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 && *s != '\t')
            return 0;
    return 1;
}

/* Appends "name: value\r\n" to the wire lines and, when show (--header's;
 * --user and --bearer show themselves), "name: value" (or "***") to what
 * is shown. @return 0, or -1 with err. */
static int add_header(struct run_config *c, const char *name, size_t n, const char *value,
                      int show, char *err)
{
    size_t used = strlen(c->headers), shown = strlen(c->headers_shown);
    int w = snprintf(c->headers + used, sizeof c->headers - used, "%.*s: %s\r\n", (int)n, name,
                     value);
    if (w < 0 || (size_t)w >= sizeof c->headers - used) {
        c->headers[used] = '\0';
        snprintf(err, ERR_LEN, "--header: the headers are over %zu bytes in all",
                 sizeof c->headers - 1);
        return -1;
    }
    if (show)
        snprintf(c->headers_shown + shown, sizeof c->headers_shown - shown, "%s%.*s: %s",
                 shown ? "; " : "", (int)n, name, secret_name(name, n) ? "***" : value);
    return 0;
}

/* Repeatable: 'Name: value'. */
int opt_parse_header(struct options *o, const char *arg, char *err)
{
    size_t n = strcspn(arg, ":");
    const char *value = arg + n + (arg[n] == ':');
    value += strspn(value, " \t");
    for (size_t i = 0; i < n; i++)
        if (!token_char((unsigned char)arg[i]))
            n = 0;
    if (!n || !arg[strcspn(arg, ":")] || !plain_value(value)) {
        snprintf(err, ERR_LEN, "--header: want 'Name: value' (a name of letters, digits and "
                 "-_.!#$%%&'*+^`|~; no line break in the value)");
        return -1;
    }
    for (size_t i = 0; i < sizeof framing / sizeof framing[0]; i++)
        if (strlen(framing[i]) == n && !strncasecmp(arg, framing[i], n)) {
            snprintf(err, ERR_LEN, "--header: %.*s is rpcbench's to write (it frames the "
                     "request)", (int)n, arg);
            return -1;
        }
    return add_header(&o->cfg, arg, n, value, 1, err);
}

/* Appends an option as every output shows it to auth_shown. */
__attribute__((format(printf, 2, 3))) static void shown(struct run_config *c, const char *fmt,
                                                        ...)
{
    size_t used = strlen(c->auth_shown);
    if (used)
        used += (size_t)snprintf(c->auth_shown + used, sizeof c->auth_shown - used, ", ");
    va_list ap;
    va_start(ap, fmt);
    if (used < sizeof c->auth_shown)
        vsnprintf(c->auth_shown + used, sizeof c->auth_shown - used, fmt, ap);
    va_end(ap);
}

/* "USER:PASS" split into user and pass (the caller's, sizes given).
 * @return 0, or -1 with err naming opt and never the value. */
static int user_pass(const char *opt, const char *arg, char *user, size_t ulen, char *pass,
                     size_t plen, char *err)
{
    size_t n = strcspn(arg, ":");
    if (!n || !arg[n] || n >= ulen || strlen(arg + n + 1) >= plen || !plain_value(arg)) {
        snprintf(err, ERR_LEN, "%s: want USER:PASS (a user of at most %zu bytes, no line "
                 "break)", opt, ulen - 1);
        return -1;
    }
    snprintf(user, ulen, "%.*s", (int)n, arg);
    snprintf(pass, plen, "%s", arg + n + 1);
    return 0;
}

/* --user USER:PASS: HTTP basic auth (RFC 7617). */
int opt_parse_user(struct options *o, const char *arg, char *err)
{
    char user[128], pass[256];
    unsigned char b64[4 * ((sizeof user + sizeof pass + 2) / 3) + 1];
    if (user_pass("--user", arg, user, sizeof user, pass, sizeof pass, err))
        return -1;
    EVP_EncodeBlock(b64, (const unsigned char *)arg, (int)strlen(arg));
    char value[sizeof b64 + 8];
    snprintf(value, sizeof value, "Basic %s", b64);
    shown(&o->cfg, "--user %.100s:***", user);
    return add_header(&o->cfg, "Authorization", 13, value, 0, err);
}

/* --bearer TOKEN: "Authorization: Bearer TOKEN" (RFC 6750). */
int opt_parse_bearer(struct options *o, const char *arg, char *err)
{
    if (!arg[0] || strpbrk(arg, " \t") || !plain_value(arg) || strlen(arg) > 1500) {
        snprintf(err, ERR_LEN, "--bearer: want a token (no blank or line break, at most "
                 "1500 bytes)");
        return -1;
    }
    char value[1600];
    snprintf(value, sizeof value, "Bearer %s", arg);
    shown(&o->cfg, "--bearer ***");
    return add_header(&o->cfg, "Authorization", 13, value, 0, err);
}

/* --stomp-login USER:PASS: CONNECT's login and passcode headers. */
int opt_parse_stomp_login(struct options *o, const char *arg, char *err)
{
    struct run_config *c = &o->cfg;
    if (user_pass("--stomp-login", arg, c->stomp_login, sizeof c->stomp_login,
                  c->stomp_passcode, sizeof c->stomp_passcode, err))
        return -1;
    shown(c, "--stomp-login %.100s:***", c->stomp_login);
    return 0;
}

int options_check_auth(const struct run_config *c, char *err)
{
    int stomp = !strncmp(c->url, "stomp", 5);
    if (stomp && c->headers[0]) {
        snprintf(err, ERR_LEN, "--header, --user and --bearer are HTTP's; over STOMP the "
                 "login is --stomp-login USER:PASS");
        return -1;
    }
    if (!stomp && c->stomp_login[0]) {
        snprintf(err, ERR_LEN, "--stomp-login: only with a stomp:// or stomps:// URL "
                 "(over HTTP: --user or --bearer)");
        return -1;
    }
    int n = 0;
    for (const char *p = c->headers; (p = strcasestr(p, "Authorization:")); p++)
        n += p == c->headers || p[-1] == '\n';
    if (n > 1) {
        snprintf(err, ERR_LEN, "give one of --user, --bearer and --header 'Authorization: "
                 "...': a request carries one Authorization");
        return -1;
    }
    return 0;
}
