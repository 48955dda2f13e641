"""Everyday programs of a standard system that no other table names.

A glob in command position (`/usr/bin/[l]s`) is matched against the programs
the engine knows; the declared programs, wrappers, interpreters and the
policy's name tables cover the risky ones, and this list adds the harmless
utilities an ordinary command runs, so that a glob that can only match one of
them is judged as it (and `/usr/b?n/l?` is known to be several programs).
"""

from __future__ import annotations

from .readers import ARCHIVERS, CREDENTIAL_USERS, EXTRACTORS, PATH_ONLY

_UTILITIES = frozenset(
    {
        # GNU coreutils
        "arch", "b2sum", "base32", "base64", "basename", "basenc", "cat", "chcon", "chgrp", "chmod", "chown",
        "chroot", "cksum", "comm", "cp", "csplit", "cut", "date", "dd", "df", "dir", "dircolors", "dirname", "du",
        "echo", "env", "expand", "expr", "factor", "false", "fmt", "fold", "groups", "head", "hostid", "id",
        "install", "join", "link", "ln", "logname", "ls", "md5sum", "mkdir", "mkfifo", "mknod", "mktemp", "mv",
        "nice", "nl", "nohup", "nproc", "numfmt", "od", "paste", "pathchk", "pinky", "pr", "printenv", "printf",
        "ptx", "pwd", "readlink", "realpath", "rm", "rmdir", "runcon", "seq", "sha1sum", "sha224sum", "sha256sum",
        "sha384sum", "sha512sum", "shred", "shuf", "sleep", "sort", "split", "stat", "stdbuf", "stty", "sum",
        "sync", "tac", "tail", "tee", "test", "timeout", "touch", "tr", "true", "truncate", "tsort", "tty", "uname",
        "unexpand", "uniq", "unlink", "uptime", "users", "vdir", "wc", "who", "whoami", "yes",
        # findutils, grep, sed, diffutils, less, which, file
        "find", "xargs", "locate", "updatedb", "grep", "egrep", "fgrep", "sed", "diff", "diff3", "cmp", "sdiff",
        "less", "more", "which", "file", "patch",
        # procps, psmisc, util-linux basics
        "ps", "top", "free", "pgrep", "pkill", "kill", "killall", "pidof", "watch", "vmstat", "w", "lsblk",
        "mount", "umount", "findmnt", "lscpu", "dmesg", "logger", "getopt", "rev", "column", "hexdump", "script",
        "flock", "ionice", "renice", "setsid", "taskset", "uuidgen", "whereis", "hostname",
        # archives and compression
        "tar", "gzip", "gunzip", "zcat", "bzip2", "xz", "zstd", "zip", "unzip",
        # everyday development tools
        "git", "make", "cmake", "gcc", "cc", "g++", "clang", "ld", "as", "ar", "strip", "objdump", "nm",
        "pkg-config", "jq", "yq", "rg", "fd", "tree", "vim", "vi", "nano", "ssh", "scp", "sftp", "rsync",
    }
)  # fmt: skip

STANDARD_PROGRAMS = _UTILITIES | PATH_ONLY | CREDENTIAL_USERS | ARCHIVERS | EXTRACTORS
"""Harmless and everyday programs a glob in command position may name, besides the declared ones."""
