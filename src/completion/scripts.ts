// The shell completion scripts: each asks the program itself for candidates
// (`completion __complete -- WORD... CURRENT`, cobra's format) and hands them to its shell.

const PROGRAMS = ['kubectl-rs_reconcile', 'rs-reconcile'];

export function bashScript(): string {
  return `# bash completion for kubectl-rs_reconcile and rs-reconcile            -*- shell-script -*-
# Load it in the current shell:
#   source <(kubectl-rs_reconcile completion bash)
# or for every new shell:
#   kubectl-rs_reconcile completion bash > ~/.local/share/bash-completion/completions/kubectl-rs_reconcile
# For "kubectl rs-reconcile <TAB>" (kubectl 1.26 and newer), put the kubectl_complete-rs_reconcile
# helper on your PATH instead: kubectl-rs_reconcile completion kubectl --help

__rs_reconcile_complete() {
    local line="\${COMP_LINE:0:COMP_POINT}"
    local -a words=()
    read -r -a words <<< "$line"
    local cur=""
    if [[ $line != *[[:space:]] && \${#words[@]} -gt 0 ]]; then
        cur="\${words[\${#words[@]}-1]}"
        unset 'words[\${#words[@]}-1]'
    fi
    local out
    out=$("\${words[0]}" completion __complete -- "\${words[@]:1}" "$cur" 2>/dev/null) || return 0
    local directive=4 item
    local -a candidates=()
    while IFS= read -r item; do
        case $item in
            :[0-9]*) directive=\${item#:} ;;
            '') ;;
            *) candidates+=("\${item%%$'\\t'*}") ;;
        esac
    done <<< "$out"
    COMPREPLY=()
    (( directive & 1 )) && return 0
    local c
    for c in "\${candidates[@]}"; do
        [[ $c == "$cur"* ]] && COMPREPLY+=("$c")
    done
    # bash splits words at = and : (COMP_WORDBREAKS): replace only the part after the last one
    if [[ $cur == *[=:]* ]]; then
        local strip="\${cur%"\${cur##*[=:]}"}"
        local i
        for i in "\${!COMPREPLY[@]}"; do COMPREPLY[i]="\${COMPREPLY[i]#"$strip"}"; done
    fi
    if (( \${#COMPREPLY[@]} == 0 )); then
        # no candidates: file names, unless the directive says no (bash 4+ only)
        if (( directive & 4 )) && type compopt >/dev/null 2>&1; then compopt +o default 2>/dev/null; fi
        return 0
    fi
    if (( directive & 2 )) && type compopt >/dev/null 2>&1; then compopt -o nospace 2>/dev/null; fi
    return 0
}

complete -o default -F __rs_reconcile_complete ${PROGRAMS.join(' ')}
`;
}

export function zshScript(): string {
  return `#compdef ${PROGRAMS.join(' ')}
# zsh completion for kubectl-rs_reconcile and rs-reconcile.
# Load it in the current shell (after compinit):
#   source <(kubectl-rs_reconcile completion zsh)
# or for every new shell, in a directory of your $fpath:
#   kubectl-rs_reconcile completion zsh > "\${fpath[1]}/_kubectl_rs_reconcile"
# For "kubectl rs-reconcile <TAB>" (kubectl 1.26 and newer), put the kubectl_complete-rs_reconcile
# helper on your PATH instead: kubectl-rs_reconcile completion kubectl --help

_kubectl_rs_reconcile() {
  local out item value desc directive=4
  local -a candidates
  out=$(\${words[1]} completion __complete -- "\${(@)words[2,CURRENT-1]}" "\${words[CURRENT]}" 2>/dev/null) || return 1
  for item in "\${(@f)out}"; do
    case $item in
      :[0-9]*) directive=\${item#:} ;;
      '') ;;
      *)
        value=\${item%%$'\\t'*}
        desc=''
        [[ $item == *$'\\t'* ]] && desc=\${item#*$'\\t'}
        candidates+=("\${value//:/\\\\:}\${desc:+:$desc}")
        ;;
    esac
  done
  (( directive & 1 )) && return 1
  if (( \${#candidates} )); then
    if (( directive & 2 )); then
      _describe -t values 'values' candidates -S ''
    else
      _describe -t values 'values' candidates
    fi
    return
  fi
  (( directive & 4 )) || _files
}

if [[ "\${funcstack[1]}" == _kubectl_rs_reconcile ]]; then
  _kubectl_rs_reconcile "$@"
else
  compdef _kubectl_rs_reconcile ${PROGRAMS.join(' ')}
fi
`;
}

export function fishScript(): string {
  return `# fish completion for kubectl-rs_reconcile and rs-reconcile
# Load it in the current shell:
#   kubectl-rs_reconcile completion fish | source
# or for every new shell:
#   kubectl-rs_reconcile completion fish > ~/.config/fish/completions/kubectl-rs_reconcile.fish
#   (and a copy named rs-reconcile.fish: fish loads a completion file by the command's name)
# For "kubectl rs-reconcile <TAB>" (kubectl 1.26 and newer), put the kubectl_complete-rs_reconcile
# helper on your PATH instead: kubectl-rs_reconcile completion kubectl --help

# Asks the program for candidates; true when they are the answer (some, or no file names wanted),
# false to leave the word to fish's own file completion.
function __rs_reconcile_prepare
    set -g __rs_reconcile_results
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l out ($words[1] completion __complete -- $words[2..-1] "$cur" 2>/dev/null)
    or return 1
    set -l directive 4
    for item in $out
        if string match -qr '^:[0-9]+$' -- $item
            set directive (string sub -s 2 -- $item)
        else if test -n "$item"
            # "value<TAB>description" is fish's own format for a candidate with a description
            set -a __rs_reconcile_results $item
        end
    end
    # directive bits: 1 error (nothing), 4 no file names
    if test (math "$directive % 2") -ne 0
        set -g __rs_reconcile_results
        return 0
    end
    test (count $__rs_reconcile_results) -gt 0; and return 0
    test (math "floor($directive / 4) % 2") -ne 0
end

${PROGRAMS.map((p) => `complete -c ${p} -e\ncomplete -c ${p} -n __rs_reconcile_prepare -f -k -a '$__rs_reconcile_results'`).join('\n')}
`;
}

/**
 * The kubectl_complete-rs_reconcile helper: kubectl (1.26+) runs it to complete the plugin.
 * `resolveScriptDir` is the POSIX sh that sets `dir` to the script's own folder (src/cli/shell.ts,
 * shared with the krew launcher), given by the caller since this layer sits below src/cli.
 */
export function kubectlHelperScript(resolveScriptDir: string): string {
  return `#!/bin/sh
# kubectl_complete-rs_reconcile: kubectl (1.26 and newer) runs this executable, found on PATH, to
# complete "kubectl rs-reconcile ...": it passes the words after "rs-reconcile" (the last one is
# the word being completed) and reads cobra's format back. Put it next to kubectl-rs_reconcile.
${resolveScriptDir}
if [ -x "$dir/kubectl-rs_reconcile" ]; then
  exec "$dir/kubectl-rs_reconcile" completion __complete -- "$@"
fi
exec kubectl-rs_reconcile completion __complete -- "$@"
`;
}
