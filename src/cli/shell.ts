// Shell snippets shared by the scripts rs-reconcile ships (the krew launcher, built by
// scripts/release.mjs, and the kubectl_complete-rs_reconcile helper of `completion kubectl`).

/**
 * POSIX sh that sets `dir` to the directory of the running script, following its symlinks
 * (krew and npm link the executables into their bin directories).
 */
export const RESOLVE_SCRIPT_DIR = `self=$0
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case $link in
    /*) self=$link ;;
    *) self=$(dirname "$self")/$link ;;
  esac
done
dir=$(dirname "$self")`;
