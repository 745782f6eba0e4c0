/* html: the page frame, escaping, tables and the cards' style shared by every page
 * (html.h); the charts are in html_chart.c. */
#include "report/html.h"

#include <string.h>

#include "base/safetext.h"
#include "base/version.h"

void html_esc(FILE *out, const char *s)
{
    char tmp[1024];
    if (!s)
        return;
    /* Defence in depth: texts are made safe where they enter */
    for (s = safetext_view(s, tmp, sizeof tmp, SAFETEXT_KEEP_LINES); *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*s, out);
        }
    }
}

/* Light by default, dark when the system says so; print: no readouts, no
 * page breaks inside a chart or a table. Colours as variables so the SVG
 * follows the theme. */
static const char css[] =
    ":root{--bg:#fff;--fg:#1b1f24;--mute:#5b6570;--line:#d0d7de;--card:#f6f8fa;"
    "--warnbg:#fff4e5;--warnfg:#7a3e00;--bad:#c62828;--good:#1b7f3b;--shade:rgba(120,120,120,.15);"
    "--c0:#1f6fd1;--c1:#d6452a;--c2:#2a9d3a;--c3:#8e44ad;--c4:#e08a00;--c5:#00838f;"
    "--c6:#6d4c41;--c7:#c2185b}\n"
    "@media (prefers-color-scheme:dark){:root{--bg:#15181c;--fg:#e3e7eb;--mute:#9aa5b1;"
    "--line:#39414a;--card:#1e2329;--warnbg:#3a2a10;--warnfg:#ffcc80;--bad:#ff6b6b;"
    "--good:#5fd37a;--shade:rgba(200,200,200,.12);--c0:#6ea8ff;--c1:#ff8a70;--c2:#6fd67d;"
    "--c3:#c792ea;--c4:#ffc04d;--c5:#4dd0e1;--c6:#bcaaa4;--c7:#f48fb1}}\n"
    "html{background:var(--bg);color:var(--fg)}"
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;"
    "max-width:1100px;padding:16px 24px}\n"
    "@media (max-width:600px){body{padding:10px 12px}}\n"
    "h1{font-size:1.5em;margin:.2em 0;overflow-wrap:anywhere}"
    "h2{font-size:1.15em;margin:1.4em 0 .4em;border-bottom:1px solid var(--line);"
    "padding-bottom:.2em}\n"
    ".sub{color:var(--mute);margin:0 0 1em}\n"
    ".cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:8px}\n"
    ".card{background:var(--card);border:1px solid var(--line);border-radius:6px;"
    "padding:6px 10px;overflow-wrap:anywhere}.card.wide{grid-column:span 2}"
    ".card.wide .v{font-size:1em}.card .k{color:var(--mute);font-size:.85em}"
    ".card .v{font-size:1.25em;font-weight:600;font-variant-numeric:tabular-nums}\n"
    ".bad{color:var(--bad)}.good{color:var(--good)}\n"
    ".warn{background:var(--warnbg);color:var(--warnfg);border-left:4px solid var(--warnfg);"
    "padding:8px 12px;margin:12px 0;border-radius:4px}.warn ul{margin:.2em 0;padding-left:1.2em}\n"
    "table{border-collapse:collapse;margin:6px 0 12px;font-variant-numeric:tabular-nums}"
    "caption{text-align:left;color:var(--mute);padding:2px 0}"
    "th,td{border-bottom:1px solid var(--line);padding:3px 10px;text-align:right}"
    "th:first-child,td:first-child{text-align:left}thead th{border-bottom:2px solid var(--line)}\n"
    /* a table wider than the window scrolls in its own box; the verdict
     * column (.stick) stays in view at its right edge */
    ".scroll{overflow-x:auto;max-width:100%}.tables>.scroll{min-width:0}"
    "th.stick,td.stick{position:sticky;right:0;background:var(--bg);"
    "box-shadow:inset 1px 0 var(--line)}pre.cols{white-space:pre;overflow-x:auto}"
    ".tables{display:flex;flex-wrap:wrap;gap:0 32px;align-items:flex-start}\n"
    ".flame svg{display:block;cursor:pointer}.flame svg text{fill:#111;"
    "font:11px ui-monospace,monospace;pointer-events:none}"
    ".flame-info{font-family:ui-monospace,monospace;min-height:1.4em;color:var(--mute);"
    "overflow-wrap:anywhere}\n"
    "figure.chart{margin:8px 0 16px}figcaption{font-weight:600}"
    ".plot{max-width:900px;box-sizing:border-box;overflow:hidden}"
    ".plot>svg{display:block;width:100%;overflow:visible}\n"
    "svg text{fill:var(--mute);font:11px system-ui,sans-serif}svg .axis{stroke:var(--line)}"
    "svg .grid{stroke:var(--line);stroke-dasharray:2 3}svg .shade{fill:var(--shade)}"
    "svg .mark{stroke:var(--bad);stroke-dasharray:5 3;stroke-width:1.5}"
    "svg .xhair{stroke:var(--mute);visibility:hidden}"
    "svg path[class]{fill:none;vector-effect:non-scaling-stroke}"
    "path.d1,line.d1{stroke-dasharray:7 4}path.d2,line.d2{stroke-dasharray:2 3}"
    "path.d3,line.d3{stroke-dasharray:8 3 2 3}\n"
    ".s0{stroke:var(--c0);fill:var(--c0);background:var(--c0)}"
    ".s1{stroke:var(--c1);fill:var(--c1);background:var(--c1)}"
    ".s2{stroke:var(--c2);fill:var(--c2);background:var(--c2)}"
    ".s3{stroke:var(--c3);fill:var(--c3);background:var(--c3)}"
    ".s4{stroke:var(--c4);fill:var(--c4);background:var(--c4)}"
    ".s5{stroke:var(--c5);fill:var(--c5);background:var(--c5)}"
    ".s6{stroke:var(--c6);fill:var(--c6);background:var(--c6)}"
    ".s7{stroke:var(--c7);fill:var(--c7);background:var(--c7)}\n"
    ".legend{font-size:.9em;color:var(--mute)}.legend .key{display:inline-block;"
    "margin-right:12px}.legend svg.sw{vertical-align:middle;margin-right:4px}\n"
    ".readout{font-size:.9em;min-height:1.4em;font-variant-numeric:tabular-nums}\n"
    "td.sig{font-weight:600}pre{background:var(--card);padding:8px;white-space:pre-wrap}"
    "h3{font-size:1em;margin:1em 0 .2em}\n"
    "footer{color:var(--mute);font-size:.85em;margin-top:2em}\n"
    /* a phone's width (after the rules it overrides): tables tighter, so
     * that compare's summary (figure, A, B, B/A, the interval) fits whole
     * and no column hides under the sticky verdict column; a caption wraps
     * within the window, never past it */
    "@media (max-width:600px){table{font-size:12px}th,td{padding:3px 4px}"
    "caption{max-width:calc(100vw - 24px)}}\n"
    "@media print{body{max-width:none;padding:0;font-size:11px}.readout{display:none}"
    "figure.chart,table,.warn,.cards{break-inside:avoid}}\n";

/* Hover: a crosshair at the pointer and, in the readout, each series' value
 * at the nearest point, from the JSON beside the SVG (the values the page
 * was written with, to the digits the tables give). */
static const char script[] =
    "(function(){'use strict';\n"
    "function tx(f,x){return f==='pct'?Math.log10(100/Math.max(100-x,1e-9)):x;}\n"
    "function fx(f,x){var t=+(+x).toPrecision(f==='pct'?7:6);return f==='pct'?'p'+t:String(t);}\n"
    "document.querySelectorAll('figure.chart').forEach(function(fig){\n"
    " var d=JSON.parse(fig.querySelector('script.chart-data').textContent);\n"
    " var svg=fig.querySelector('.plot>svg'),hair=svg.querySelector('.xhair'),"
    "ro=fig.querySelector('.readout');\n"
    " function show(ev){\n"
    "  var r=svg.getBoundingClientRect(),px=ev.clientX-r.left;\n"
    "  if(!(r.width>0)||px<0||px>r.width)return;\n"
    "  var xv=d.x0+px/r.width*(d.x1-d.x0),parts=[],at=null;\n"
    "  d.s.forEach(function(s){var xs=s.x||d.x,b=-1,bd=Infinity;\n"
    "   for(var i=0;i<xs.length;i++){var e=Math.abs(tx(d.xf,xs[i])-xv);"
    "if(s.y[i]!==null&&e<bd){bd=e;b=i;}}\n"
    "   if(b<0)return;if(at===null)at=xs[b];\n"
    "   parts.push(s.n+' '+s.y[b].toFixed(s.d)+(s.u?' '+s.u:'')"
    "+(s.x&&xs[b]!==at?' @'+fx(d.xf,xs[b]):''));});\n"
    "  hair.setAttribute('x1',px);hair.setAttribute('x2',px);hair.style.visibility='visible';\n"
    "  ro.textContent=(at===null?'':(d.xn?d.xn+' = ':'')+fx(d.xf,at)+(d.xu?' '+d.xu:'')+': ')"
    "+parts.join(' \\u00b7 ');}\n"
    " svg.addEventListener('mousemove',show);\n"
    " svg.addEventListener('mouseleave',function(){hair.style.visibility='hidden';});\n"
    "});})();\n";

void html_begin(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
          "<meta name=\"color-scheme\" content=\"light dark\">\n"
          "<link rel=\"icon\" href=\"data:,\">\n<title>", out);
    html_esc(out, title);
    fprintf(out, "</title>\n<style>\n%s</style></head>\n<body><main>\n<h1>", css);
    html_esc(out, title);
    fputs("</h1>\n", out);
}

void html_end(FILE *out)
{
    fputs("</main>\n<footer>rpcbench ", out);
    html_esc(out, rpcbench_version());
    fprintf(out, ": charts drawn from the histograms and the interval timeline; hover a chart "
                 "for its values.</footer>\n<script>\n%s</script>\n</body></html>\n", script);
}

void html_section(FILE *out, const char *title)
{
    fputs("<section><h2>", out);
    html_esc(out, title);
    fputs("</h2>\n", out);
}

void html_section_end(FILE *out)
{
    fputs("</section>\n", out);
}

void html_table(FILE *out, const char *caption, const char *const *heads, int n)
{
    fputs("<div class=\"scroll\"><table>", out);
    if (caption) {
        fputs("<caption>", out);
        html_esc(out, caption);
        fputs("</caption>", out);
    }
    fputs("<thead><tr>", out);
    for (int i = 0; i < n; i++) {
        fputs("<th>", out);
        html_esc(out, heads[i]);
        fputs("</th>", out);
    }
    fputs("</tr></thead><tbody>\n", out);
}

void html_row(FILE *out, const char *const *cells, int n)
{
    fputs("<tr>", out);
    for (int i = 0; i < n; i++) {
        fputs(i ? "<td>" : "<th scope=\"row\">", out);
        html_esc(out, cells[i]);
        fputs(i ? "</td>" : "</th>", out);
    }
    fputs("</tr>\n", out);
}

void html_table_end(FILE *out)
{
    fputs("</tbody></table></div>\n", out);
}

void html_warn_open(FILE *out)
{
    fputs("<div class=\"warn\" role=\"alert\"><strong>Warnings</strong><ul>\n", out);
}

void html_warn_item(FILE *out, const char *prefix, const char *text)
{
    fputs("<li>", out);
    html_esc(out, prefix);
    html_esc(out, text);
    fputs("</li>\n", out);
}

void html_warn_close(FILE *out)
{
    fputs("</ul></div>\n", out);
}

void html_warnings(FILE *out, const struct run_result *r, const char *prefix)
{
    if (!r->nwarnings)
        return;
    html_warn_open(out);
    for (size_t i = 0; i < r->nwarnings; i++)
        html_warn_item(out, prefix, r->warnings[i]);
    html_warn_close(out);
}
