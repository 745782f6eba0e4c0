/* html_chart: line charts as SVG, written here (html.h): no charting
 * library at view time, a few bytes per point, and crisp in print.
 *
 * Text is laid out in CSS px and never scaled: an SVG's viewBox scales its
 * text with the chart, so at 420 px a 760-unit chart wrote 5 px labels.
 * The outer <svg> is the plot area itself (the box's padding holds the
 * labels, drawn outside it with overflow visible); x positions are
 * percentages of its width, y positions px from its top. Only the lines
 * stretch: they sit in an inner <svg> whose viewBox maps x 0..1000 onto
 * the width (preserveAspectRatio none; strokes non-scaling, in CSS). So a
 * chart reads the same at every width, with no second layout to keep. */
#include "report/html.h"

#include <json-c/json.h>
#include <math.h>
#include <string.h>

/* The plot area's height and the room around it for the labels, CSS px. */
#define PH 200.0
#define PAD_TOP 30
#define PAD_BOTTOM 40
#define PAD_LEFT 52
#define PAD_RIGHT_ONE 28 /* half the widest x label ("99.999%") past the end */
#define PAD_RIGHT_TWO 52 /* the right-hand axis' labels */
#define DATA_W 1000.0    /* the lines' viewBox width */

/* Points per series up to which each gets a dot with a <title> tooltip. */
#define DOTS_MAX 120

struct frame {
    double x0, x1;            /* x range (log 1/(1-p) for percentiles) */
    double ymax[2];           /* per axis, from 0 */
    double ystep[2];
    enum doc_xaxis xaxis;
};


static const double *xs_of(const struct doc_chart *c, const struct doc_series *s)
{
    return s->x ? s->x : c->x;
}

/* 1, 2, 2.5 or 5 times a power of ten, at least v. */
static double nice(double v)
{
    if (!(v > 0))
        return 1;
    double p = pow(10, floor(log10(v))), m = v / p;
    return p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10);
}

static void y_ranges(struct frame *f, const struct doc_series *s, int ns)
{
    double mx[2] = {0, 0};
    for (int k = 0; k < ns; k++)
        for (size_t i = 0; i < s[k].n; i++)
            if (!doc_chart_gap(s[k].y[i]) && s[k].y[i] > mx[s[k].axis ? 1 : 0])
                mx[s[k].axis ? 1 : 0] = s[k].y[i];
    for (int a = 0; a < 2; a++) {
        f->ystep[a] = nice(mx[a] / 4);
        /* headroom: a line at the top would hide in the frame */
        f->ymax[a] = ceil(mx[a] * 1.04 / f->ystep[a]) * f->ystep[a];
        if (f->ymax[a] <= 0)
            f->ymax[a] = f->ystep[a];
    }
}

static void x_range(struct frame *f, const struct doc_chart *c, const struct doc_series *s,
                    int ns)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < ns; k++)
        for (size_t i = 0; i < s[k].n; i++) {
            double x = doc_chart_xpos(c->xaxis, xs_of(c, &s[k])[i]);
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
    if (c->xmin != c->xmax)
        lo = doc_chart_xpos(c->xaxis, c->xmin), hi = doc_chart_xpos(c->xaxis, c->xmax);
    if (c->shade0 != c->shade1 && c->shade0 < lo)
        lo = c->shade0;
    if (c->xaxis == DOC_X_PERCENTILE)
        lo = 0, hi = ceil(hi - 1e-9) < 2 ? 2 : ceil(hi - 1e-9);
    if (!(hi > lo)) /* one point, or none */
        lo = isfinite(lo) ? lo - 1 : 0, hi = isfinite(hi) ? hi + 1 : 1;
    f->x0 = lo;
    f->x1 = hi;
}

/* Where x is across the plot, 0..1 (of the axis' own scale: tx'd). */
static double fx_axis(const struct frame *f, double v)
{
    return (v - f->x0) / (f->x1 - f->x0);
}

static double fx(const struct frame *f, double x)
{
    return fx_axis(f, doc_chart_xpos(f->xaxis, x));
}

/* px from the plot's top */
static double py(const struct frame *f, int axis, double y)
{
    return PH - y / f->ymax[axis ? 1 : 0] * PH;
}

static void x_ticks(FILE *out, const struct frame *f)
{
    double step = f->xaxis == DOC_X_PERCENTILE ? 1 : nice((f->x1 - f->x0) / 6);
    for (double v = ceil(f->x0 / step - 1e-9) * step; v <= f->x1 + 1e-9; v += step) {
        double x = 100 * fx_axis(f, v);
        char lab[32];
        if (f->xaxis == DOC_X_PERCENTILE)
            doc_chart_pct_label((int)lround(v), lab, sizeof lab);
        else
            snprintf(lab, sizeof lab, "%g", fabs(v) < step / 1e6 ? 0 : v);
        fprintf(out, "<line class=\"grid\" x1=\"%.2f%%\" x2=\"%.2f%%\" y1=\"0\" y2=\"%.0f\"/>"
                     "<text class=\"tick\" x=\"%.2f%%\" y=\"%.0f\" text-anchor=\"middle\">%s"
                     "</text>\n", x, x, PH, x, PH + 15, lab);
    }
}

static void y_ticks(FILE *out, const struct frame *f, int axis)
{
    double step = f->ystep[axis];
    for (double v = 0; v <= f->ymax[axis] + step / 1e6; v += step) {
        double y = py(f, axis, v);
        if (axis == 0)
            fprintf(out, "<line class=\"grid\" x1=\"0\" x2=\"100%%\" y1=\"%.1f\" y2=\"%.1f\"/>",
                    y, y);
        fprintf(out, "<text class=\"tick\" x=\"%s\" dx=\"%d\" y=\"%.1f\" text-anchor=\"%s\">%g"
                     "</text>\n", axis ? "100%" : "0", axis ? 5 : -5, y + 4,
                axis ? "start" : "end", v);
    }
}

/* The y titles above the plot, clear of the top tick label (its box
 * reaches about 6 px above the plot), at the box's outer edges; the x
 * title under the x tick labels. */
static void axis_titles(FILE *out, const struct doc_chart *c, int pad_right)
{
    fprintf(out, "<text class=\"atitle\" x=\"%d\" y=\"-14\">", -PAD_LEFT);
    html_esc(out, c->yname);
    fputs("</text>", out);
    if (c->y2name) {
        fprintf(out, "<text class=\"atitle\" x=\"100%%\" dx=\"%d\" y=\"-14\" "
                     "text-anchor=\"end\">", pad_right);
        html_esc(out, c->y2name);
        fputs("</text>", out);
    }
    fprintf(out, "<text class=\"atitle\" x=\"50%%\" y=\"%.0f\" text-anchor=\"middle\">", PH + 32);
    html_esc(out, c->xname);
    if (c->xunit && c->xunit[0]) {
        fputs(" (", out);
        html_esc(out, c->xunit);
        fputs(")", out);
    }
    fputs("</text>\n", out);
}

static void shade_and_mark(FILE *out, const struct frame *f, const struct doc_chart *c)
{
    if (c->shade0 != c->shade1) {
        double a = 100 * fx(f, c->shade0), b = 100 * fx(f, c->shade1);
        fprintf(out, "<rect class=\"shade\" x=\"%.2f%%\" y=\"0\" width=\"%.2f%%\" "
                     "height=\"%.0f\"><title>", a, b - a, PH);
        html_esc(out, c->shade_label);
        fprintf(out, "</title></rect><text x=\"%.2f%%\" dx=\"3\" y=\"11\">", a);
        html_esc(out, c->shade_label);
        fputs("</text>\n", out);
    }
    for (int i = 0; i < c->nmarks && i < DOC_CHART_MAX_MARKS; i++) {
        double x = 100 * fx(f, c->marks[i]);
        int left = x > 50; /* the label on the side with room */
        fprintf(out, "<line class=\"mark\" x1=\"%.2f%%\" x2=\"%.2f%%\" y1=\"0\" y2=\"%.0f\">"
                     "<title>", x, x, PH);
        html_esc(out, c->mark_labels[i]);
        fprintf(out, "</title></line><text x=\"%.2f%%\" dx=\"%d\" y=\"%d\" text-anchor=\"%s\">",
                x, left ? -3 : 3, 11 + 12 * i, left ? "end" : "start");
        html_esc(out, c->mark_labels[i]);
        fputs("</text>\n", out);
    }
}

/* ---- series ---------------------------------------------------------------- */

/* Which series lie wholly under a later one (same axis, every point within
 * a pixel, gaps alike): drawn first, they would not show at all. */
struct overlap {
    int depth[DOC_CHART_MAX_SERIES]; /* how many later series lie on it */
    int over[DOC_CHART_MAX_SERIES];  /* the first of them, or -1 */
};

static int lies_on(const struct frame *f, const struct doc_chart *c,
                   const struct doc_series *a, const struct doc_series *b)
{
    if (a->axis != b->axis || a->n != b->n)
        return 0;
    const double *xa = xs_of(c, a), *xb = xs_of(c, b);
    size_t drawn = 0;
    for (size_t i = 0; i < a->n; i++) {
        if (doc_chart_gap(a->y[i]) != doc_chart_gap(b->y[i]))
            return 0;
        if (doc_chart_gap(a->y[i]))
            continue;
        if (fabs(fx(f, xa[i]) - fx(f, xb[i])) > 1e-3 ||
            fabs(py(f, a->axis, a->y[i]) - py(f, b->axis, b->y[i])) > 1)
            return 0;
        drawn++;
    }
    return drawn > 0;
}

static void overlaps(struct overlap *o, const struct frame *f, const struct doc_chart *c,
                     const struct doc_series *s, int ns)
{
    for (int k = 0; k < ns; k++) {
        o->depth[k] = 0;
        o->over[k] = -1;
        for (int j = k + 1; j < ns; j++)
            if (lies_on(f, c, &s[k], &s[j])) {
                o->depth[k]++;
                o->over[k] = o->over[k] < 0 ? j : o->over[k];
            }
    }
}

/* Colour and dash classes: "s3 d1". */
static void style_of(const struct doc_series *s, int k, char *out, size_t len)
{
    int hue = s->hue > 0 ? s->hue - 1 : k;
    snprintf(out, len, "s%d d%d", hue % DOC_CHART_MAX_SERIES, s->dash & 3);
}

/* One series: a path, broken at gaps, wider by 3 px per series lying on
 * it (its colour then shows either side of theirs). */
static void series_path(FILE *out, const struct frame *f, const struct doc_chart *c,
                        const struct doc_series *s, int k, int depth)
{
    const double *x = xs_of(c, s);
    char cls[16];
    style_of(s, k, cls, sizeof cls);
    fprintf(out, "<path class=\"%s\" style=\"stroke-width:%.1fpx\" data-series=\"", cls,
            2.0 + 3 * depth);
    html_esc(out, s->name);
    fputs("\" d=\"", out);
    int pen = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (doc_chart_gap(s->y[i])) {
            pen = 0;
            continue;
        }
        fprintf(out, "%c%.1f %.1f", pen ? 'L' : 'M', DATA_W * fx(f, x[i]),
                py(f, s->axis, s->y[i]));
        pen = 1;
    }
    fputs("\"><title>", out);
    html_esc(out, s->name);
    fputs("</title></path>\n", out);
}

/* Its dots with tooltips, if few: circles outside the stretched lines, so
 * they stay round. */
static void series_dots(FILE *out, const struct frame *f, const struct doc_chart *c,
                        const struct doc_series *s, int k, int depth)
{
    const double *x = xs_of(c, s);
    char cls[16];
    style_of(s, k, cls, sizeof cls);
    for (size_t i = 0; s->n <= DOTS_MAX && i < s->n; i++) {
        if (doc_chart_gap(s->y[i]))
            continue;
        fprintf(out, "<circle class=\"%s\" r=\"%.1f\" cx=\"%.2f%%\" cy=\"%.1f\"><title>", cls,
                2.5 + 1.5 * depth, 100 * fx(f, x[i]), py(f, s->axis, s->y[i]));
        html_esc(out, s->name);
        fprintf(out, " %s%.10g%s%s: %.*f %s</title></circle>\n",
                c->xaxis == DOC_X_PERCENTILE ? "p" : "", x[i], c->xunit ? " " : "",
                c->xunit ? c->xunit : "", s->dec, s->y[i], s->unit ? s->unit : "");
    }
}

/* ---- the values as JSON, for the hover script ------------------------------
 *
 * The document is built with json-c and serialized plain. Every number
 * carries its own text (json_object_new_double_s): the digits the readout
 * gives (a series' dec for y, %.10g for x), never json-c's %.17g
 * (0.30000000000000004), and independent of the process-wide double
 * format result_json_text sets for the files. */

/* The digits of v, fixed with dec decimals (dec >= 0) or %.10g (dec < 0).
 * NaN and inf: NULL, which json-c writes as null, since JSON has no
 * number for them (a bare nan or inf would make JSON.parse throw, and with
 * it the hover of this chart and of every later one); the script already
 * reads a null y as "no value here" and skips it (a null x counts as 0
 * there, but x values are times, rates and percentiles, finite). @return
 * a new number, or NULL then (or without memory); the caller's to put or
 * to add to a parent. */
static json_object *num(double v, int dec)
{
    if (!isfinite(v))
        return NULL;
    char text[64];
    int n = dec >= 0 ? snprintf(text, sizeof text, "%.*f", dec, v)
                     : snprintf(text, sizeof text, "%.10g", v);
    if (n < 0 || (size_t)n >= sizeof text) /* |v| near 1e60: fixed would be cut */
        snprintf(text, sizeof text, "%.10g", v);
    return json_object_new_double_s(v, text);
}

/* s as a JSON string (NULL: ""). @return a new string, the caller's. */
static json_object *str(const char *s)
{
    return json_object_new_string(s ? s : "");
}

/* x values: every one a number, as the readout's nearest-point search
 * needs. @return a new array, the caller's. */
static json_object *xs_json(const double *v, size_t n)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < n; i++)
        json_object_array_add(a, num(v[i], -1));
    return a;
}

/* y values with dec decimals, a gap (unknown) as null. @return a new
 * array, the caller's. */
static json_object *ys_json(const double *v, size_t n, int dec)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; i < n; i++)
        json_object_array_add(a, doc_chart_gap(v[i]) ? NULL : num(v[i], dec));
    return a;
}

/* {"n": name, "u": unit, "d": decimals, "x": own x (if any), "y": [...]}.
 * @return a new object, the caller's. */
static json_object *series_json(const struct doc_series *s)
{
    json_object *o = json_object_new_object();
    json_object_object_add(o, "n", str(s->name));
    json_object_object_add(o, "u", str(s->unit));
    json_object_object_add(o, "d", json_object_new_int(s->dec));
    if (s->x)
        json_object_object_add(o, "x", xs_json(s->x, s->n));
    json_object_object_add(o, "y", ys_json(s->y, s->n, s->dec));
    return o;
}

/* What the script reads (html.c): the x axis' kind, name and unit, the x
 * range (the plot's width, in CSS px, maps the pointer onto it), the
 * shared x (as long as the longest series using it), and the series.
 * @return a new object, the caller's to put. */
static json_object *chart_doc(const struct frame *f, const struct doc_chart *c,
                              const struct doc_series *s, int ns)
{
    json_object *d = json_object_new_object();
    json_object_object_add(d, "xf", str(c->xaxis == DOC_X_PERCENTILE ? "pct" : "lin"));
    json_object_object_add(d, "xn", str(c->xname));
    json_object_object_add(d, "xu", str(c->xunit));
    json_object_object_add(d, "x0", num(f->x0, -1));
    json_object_object_add(d, "x1", num(f->x1, -1));
    size_t nx = 0;
    for (int k = 0; k < ns; k++)
        if (!s[k].x && s[k].n > nx)
            nx = s[k].n;
    if (c->x)
        json_object_object_add(d, "x", xs_json(c->x, nx));
    json_object *arr = json_object_new_array();
    for (int k = 0; k < ns; k++)
        json_object_array_add(arr, series_json(&s[k]));
    json_object_object_add(d, "s", arr);
    return d;
}

/* JSON text inside a <script> block, with every < > & as \u003c \u003e
 * \u0026: "</script" would end the block early, and "<!--" followed by
 * "<script" would keep the real end tag from ending it (HTML's script data
 * states); json-c escapes neither (only "/", and "/" alone does not cover
 * "<!--"). In JSON text these characters occur only inside strings, where
 * the escape is the same string, so JSON.parse reads the labels as given. */
static void script_text(FILE *out, const char *text)
{
    for (; *text; text++) {
        unsigned char ch = (unsigned char)*text;
        if (ch == '<' || ch == '>' || ch == '&')
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
}

static void chart_json(FILE *out, const struct frame *f, const struct doc_chart *c,
                       const struct doc_series *s, int ns)
{
    json_object *d = chart_doc(f, c, s, ns);
    /* plain: no spaces; slashes as they are ("/s", URLs): script_text's
     * "<" escape already keeps "</" out. The text is d's. */
    const char *text =
        json_object_to_json_string_ext(d, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    fputs("<script type=\"application/json\" class=\"chart-data\">", out);
    /* without memory: a chart with no values (the hover shows nothing),
     * rather than text JSON.parse would throw on */
    script_text(out, text ? text : "{\"s\":[]}");
    fputs("</script>\n", out);
    json_object_put(d);
}

/* Each series' key: a short line in its colour, dash and width, its name,
 * and, for a series lying under a later one, which. */
static void legend(FILE *out, const struct doc_series *s, int ns, const struct overlap *o)
{
    fputs("<div class=\"legend\">", out);
    for (int k = 0; k < ns; k++) {
        char cls[16];
        style_of(&s[k], k, cls, sizeof cls);
        fprintf(out, "<span class=\"key\"><svg class=\"sw\" width=\"26\" height=\"12\" "
                     "aria-hidden=\"true\"><line class=\"%s\" style=\"stroke-width:%.1fpx\" "
                     "x1=\"1\" x2=\"25\" y1=\"6\" y2=\"6\"/></svg>", cls, 2.0 + 3 * o->depth[k]);
        html_esc(out, s[k].name);
        if (s[k].axis)
            fputs(" (right axis)", out);
        if (o->over[k] >= 0) {
            fputs(" (under ", out);
            html_esc(out, s[o->over[k]].name);
            fputs(": the same line, drawn wide)", out);
        }
        fputs("</span>", out);
    }
    fputs("</div>\n", out);
}

/* What lies in the plot area, from the shading to the dots: the page's
 * and a standalone file's (html_chart_area). */
static void area(FILE *out, const struct frame *f, const struct doc_chart *c,
                 const struct doc_series *s, int ns, const struct overlap *o)
{
    int pad_right = c->y2name ? PAD_RIGHT_TWO : PAD_RIGHT_ONE;
    shade_and_mark(out, f, c);
    x_ticks(out, f);
    y_ticks(out, f, 0);
    if (c->y2name)
        y_ticks(out, f, 1);
    fprintf(out, "<line class=\"axis\" x1=\"0\" x2=\"100%%\" y1=\"%.0f\" y2=\"%.0f\"/>\n", PH,
            PH);
    axis_titles(out, c, pad_right);
    fprintf(out, "<svg class=\"data\" width=\"100%%\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                 "preserveAspectRatio=\"none\" overflow=\"visible\">\n", PH, DATA_W, PH);
    for (int k = 0; k < ns; k++)
        series_path(out, f, c, &s[k], k, o->depth[k]);
    fputs("</svg>\n", out);
    for (int k = 0; k < ns; k++)
        series_dots(out, f, c, &s[k], k, o->depth[k]);
}

/* The plot: the outer <svg> is the plot area, the padding of its box the
 * room for the labels around it. */
static void plot(FILE *out, const struct frame *f, const struct doc_chart *c,
                 const struct doc_series *s, int ns, const struct overlap *o)
{
    int pad_right = c->y2name ? PAD_RIGHT_TWO : PAD_RIGHT_ONE;
    fprintf(out, "<div class=\"plot\" style=\"padding:%dpx %dpx %dpx %dpx\">"
                 "<svg height=\"%.0f\" role=\"img\" aria-label=\"", PAD_TOP, pad_right,
            PAD_BOTTOM, PAD_LEFT, PH);
    html_esc(out, c->title);
    fputs("\" xmlns=\"http://www.w3.org/2000/svg\">\n", out);
    area(out, f, c, s, ns, o);
    fprintf(out, "<line class=\"xhair\" x1=\"0\" x2=\"0\" y1=\"0\" y2=\"%.0f\"/>\n</svg></div>\n",
            PH);
}

void html_chart_box(const struct doc_chart *c, struct html_chart_box *b)
{
    *b = (struct html_chart_box){PAD_TOP, c->y2name ? PAD_RIGHT_TWO : PAD_RIGHT_ONE,
                                 PAD_BOTTOM, PAD_LEFT, PH};
}

/* The frame and the overlapping series of c, as both the page's figure
 * and --plot's panel draw it. @return the series drawn (at most
 * DOC_CHART_MAX_SERIES). */
static int frame_of(const struct doc_chart *c, struct frame *f, struct overlap *o)
{
    int ns = c->ns > DOC_CHART_MAX_SERIES ? DOC_CHART_MAX_SERIES : c->ns;
    *f = (struct frame){.xaxis = c->xaxis};
    x_range(f, c, c->s, ns);
    y_ranges(f, c->s, ns);
    overlaps(o, f, c, c->s, ns);
    return ns;
}

void html_chart_area(FILE *out, const struct doc_chart *c)
{
    struct frame f;
    struct overlap o;
    int ns = frame_of(c, &f, &o);
    area(out, &f, c, c->s, ns, &o);
}

void html_chart_class(const struct doc_chart *c, int k, char *out, size_t len)
{
    style_of(&c->s[k], k, out, len);
}

void html_chart(FILE *out, const struct doc_chart *c)
{
    const struct doc_series *s = c->s;
    struct frame f;
    struct overlap o;
    int ns = frame_of(c, &f, &o);
    fputs("<figure class=\"chart\" id=\"", out);
    html_esc(out, c->id);
    fputs("\"><figcaption>", out);
    html_esc(out, c->title);
    fputs("</figcaption>\n", out);
    plot(out, &f, c, s, ns, &o);
    legend(out, s, ns, &o);
    fputs("<div class=\"readout\" aria-live=\"polite\">Hover the chart for its values.</div>\n",
          out);
    chart_json(out, &f, c, s, ns);
    fputs("</figure>\n", out);
}
