/* option_completion: the bash completion script, written from the option
 * table (option_table.h) as the man page is, so that it offers exactly
 * the options each command takes and the values each one accepts, and
 * cannot drift from --help. Static text: completing costs no run of
 * rpcbench. */
#include "cli/option_table.h"

#include <string.h>

/* The words a row's value takes, blank-separated, into out ("" none:
 * the shell offers file names). */
static void value_words(const struct opt_row *r, char *out, size_t len)
{
    out[0] = '\0';
    if (r->type == OT_CHOICE)
        for (int i = 0; i < r->nchoices; i++) {
            size_t used = strlen(out);
            snprintf(out + used, len - used, "%s%s", i ? " " : "", r->choices[i]);
        }
    else if (r->type == OT_CUSTOM && r->complete)
        snprintf(out, len, "%s", r->complete);
}

/* A case arm per row whose value has words: "--verb) w='...' ;;". Rows
 * that share a name (serve's own) take numbers, so one arm per name
 * serves. */
static void values_case(FILE *out)
{
    fputs("    case $prev in\n", out);
    for (size_t i = 0; i < opt_nrows; i++) {
        const struct opt_row *r = &opt_rows[i];
        char words[512];
        value_words(r, words, sizeof words);
        if (!words[0] || opt_find(r->name) != r)
            continue;
        fprintf(out, "    --%s", r->name);
        if (r->short_opt)
            fprintf(out, "|-%c", r->short_opt);
        fprintf(out, ") words='%s' ;;\n", words);
    }
    fputs("    esac\n", out);
}

/* The options that take a value (their next word is not an option). */
static void takes_value_case(FILE *out)
{
    fputs("    case $prev in\n    ", out);
    int n = 0;
    for (size_t i = 0; i < opt_nrows; i++) {
        const struct opt_row *r = &opt_rows[i];
        if (!r->arg || opt_find(r->name) != r)
            continue;
        fprintf(out, "%s--%s", n++ % 6 ? "|" : n > 1 ? "|\\\n    " : "", r->name);
        if (r->short_opt)
            fprintf(out, "|-%c", r->short_opt);
    }
    fputs(")\n        [ -n \"$words\" ] && _rpcbench_words \"$words\"\n"
          "        return ;;\n    esac\n", out);
}

/* A case arm per command: the options it takes. */
static void options_case(FILE *out)
{
    fputs("    case ${COMP_WORDS[1]} in\n", out);
    for (int c = 0; c < CMD_N; c++) {
        fprintf(out, "    %s) opts='--help", opt_cmd_name((enum opt_cmd)c));
        for (size_t i = 0; i < opt_nrows; i++)
            if ((opt_rows[i].cmds & (1u << c)) && opt_rows[i].type != OT_HELP)
                fprintf(out, " --%s", opt_rows[i].name);
        fputs("' ;;\n", out);
    }
    fputs("    *) return ;;\n    esac\n", out);
}

void opt_completion(FILE *out)
{
    fputs("# bash completion for rpcbench(1), written by `rpcbench help-completion`\n"
          "# from its option table: regenerate it, do not edit it.\n\n"
          "# Offers $1's words for the current word; after a comma, for what\n"
          "# follows the last one (sweep's lists, --verb's mixes).\n"
          "_rpcbench_words()\n{\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} pre=\n"
          "    case $cur in *,*) pre=${cur%,*},; cur=${cur##*,} ;; esac\n"
          "    COMPREPLY=($(compgen -P \"$pre\" -W \"$1\" -- \"$cur\"))\n}\n\n"
          "_rpcbench()\n{\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    local words= opts=\n    COMPREPLY=()\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n", out);
    fputs("        _rpcbench_words 'run compare sweep report serve agent record help --help --version'\n"
          "        return\n    fi\n", out);
    values_case(out);
    takes_value_case(out);
    options_case(out);
    fputs("    case $cur in -*) _rpcbench_words \"$opts\" ;; esac\n}\n"
          "complete -o default -o bashdefault -F _rpcbench rpcbench\n", out);
}
