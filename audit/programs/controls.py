"""The host's security controls: firewalls (iptables and its variants, nft, ufw, firewalld's
firewall-cmd, BSD and macOS pf, macOS's application firewall), mandatory access control (SELinux's
setenforce, AppArmor's tools), the Linux audit system (auditctl), macOS's Gatekeeper, System
Integrity Protection and preferences (spctl, csrutil, defaults), the system's trusted certificate
authorities (macOS's security, p11-kit's trust), and `service`, which starts and stops any of them."""

from __future__ import annotations

from ._grammar import POSIX, Syntax, flag, valued
from ._program import HelpForms, Program
from ._tree import leaf, tree

_HELP = HelpForms(("-h", "--help"))

# iptables reads an optional chain after -F, -L, -S, -Z and -X from the next word when it is not an
# option: declared as flags, the chain is an operand. -P takes the chain; its target is an operand.
IPTABLES = Program(
    ("iptables", "ip6tables", "iptables-legacy", "ip6tables-legacy", "iptables-nft", "ip6tables-nft"),
    help_forms=_HELP,
    options=(
        valued("-t", "--table"), valued("-A", "--append"), valued("-C", "--check"), valued("-D", "--delete"),
        valued("-R", "--replace"), valued("-I", "--insert"), valued("-N", "--new-chain"),
        valued("-E", "--rename-chain"), valued("-P", "--policy"), valued("-j", "--jump"), valued("-g", "--goto"),
        valued("-p", "--protocol"), valued("-s", "--source"), valued("-d", "--destination"),
        valued("-i", "--in-interface"), valued("-o", "--out-interface"), valued("-m", "--match"),
        valued("-c", "--set-counters"), valued("-W", "--wait-interval"), valued("--modprobe"),
        flag("-F", "--flush"), flag("-L", "--list"), flag("-S", "--list-rules"), flag("-Z", "--zero"),
        flag("-X", "--delete-chain"), flag("-n", "--numeric"), flag("-v", "--verbose"), flag("-x", "--exact"),
        flag("--line-numbers"), flag("-w", "--wait"), flag("-f", "--fragment"), flag("-4", "--ipv4"),
        flag("-6", "--ipv6"), flag("-V", "--version"), flag("-h", "--help"),
    ),
    operands=("ARGUMENT...",),
)  # fmt: skip

# nft reads its options first; the rest is its command, in words or in one quoted string
# (`nft flush ruleset`, `nft 'flush ruleset'`). `-c` only checks the command.
NFT = Program(
    ("nft",),
    syntax=POSIX,
    help_forms=_HELP,
    options=(
        valued("-f", "--file"), valued("-I", "--includepath"), valued("-D", "--define"), valued("-d", "--debug"),
        flag("-c", "--check"), flag("-i", "--interactive"), flag("-a", "--handle"), flag("-e", "--echo"),
        flag("-j", "--json"), flag("-n", "--numeric"), flag("-N", "--reversedns"), flag("-s", "--stateless"),
        flag("-S", "--service"), flag("-t", "--terse"), flag("-T", "--numeric-time"), flag("-u", "--guid"),
        flag("-y", "--numeric-priority"), flag("-p", "--numeric-protocol"), flag("-o", "--optimize"),
        flag("-v", "--version"), flag("-V"), flag("-h", "--help"),
    ),
    operands=("COMMAND...",),
)  # fmt: skip

_UFW_RULE_COMMANDS = ("allow", "deny", "reject", "limit", "delete", "insert", "prepend", "route", "app")
UFW = Program(
    ("ufw",),
    help_forms=_HELP,
    options=(flag("--dry-run"), flag("--force"), flag("-h", "--help"), flag("--version")),
    subcommands=tree(
        "enable", "disable", "reload", "reset", "version",
        leaf("status", operands=("FORMAT",)),
        leaf("default", operands=("POLICY", "DIRECTION")),
        leaf("logging", operands=("LEVEL",)),
        leaf("show", operands=("REPORT",)),
        *(leaf(action, operands=("RULE...",)) for action in _UFW_RULE_COMMANDS),
    ),
)  # fmt: skip

# argparse: `--set-default-zone=trusted` or `--set-default-zone trusted`, unique prefixes.
FIREWALL_CMD = Program(
    ("firewall-cmd",),
    help_forms=_HELP,
    options=(
        valued("--set-default-zone"), valued("--zone"), valued("--add-service"), valued("--remove-service"),
        valued("--add-port"), valued("--remove-port"), valued("--add-source"), valued("--remove-source"),
        valued("--add-interface"), valued("--change-interface"), valued("--remove-interface"),
        flag("--permanent"), flag("--reload"), flag("--state"), flag("--list-all"), flag("--get-default-zone"),
        flag("--panic-on"), flag("--panic-off"), flag("--query-panic"),
        flag("-q", "--quiet"), flag("-h", "--help"), flag("-V", "--version"),
    ),
)  # fmt: skip

# BSD getopt: `-d` disables pf, `-F MODIFIER` flushes, `-n` only parses the rules it is given.
PFCTL = Program(
    ("pfctl",),
    syntax=POSIX,
    options=(
        valued("-a"), valued("-D"), valued("-f"), valued("-F"), valued("-i"), valued("-K"), valued("-k"),
        valued("-o"), valued("-p"), valued("-s"), valued("-T"), valued("-t"), valued("-x"), flag("-A"),
        flag("-d"), flag("-e"), flag("-g"), flag("-h"), flag("-m"), flag("-N"), flag("-n"), flag("-O"),
        flag("-P"), flag("-q"), flag("-R"), flag("-r"), flag("-S"), flag("-v"), flag("-z"),
    ),
)  # fmt: skip

SETENFORCE = Program(("setenforce",), operands=("MODE",))

AA_TEARDOWN = Program(("aa-teardown",))

# apparmor-utils (argparse): each profile named is disabled, or left loaded but not enforced.
AA_DISABLE = Program(
    ("aa-disable", "aa-complain"),
    help_forms=_HELP,
    options=(valued("-d", "--dir"), flag("--no-reload"), flag("-h", "--help")),
    operands=("PROFILE...",),
)

# `-R` unloads the profiles named, `-C` loads them in complain mode; `-Q` loads nothing into the kernel.
APPARMOR_PARSER = Program(
    ("apparmor_parser",),
    help_forms=_HELP,
    options=(
        valued("-o", "--ofile"), valued("-b", "--base"), valued("-I", "--Include"), valued("-L", "--cache-loc"),
        valued("-m", "--match-string"), valued("-n", "--namespace-string"), valued("-M", "--features-file"),
        valued("-D", "--dump"), valued("-O", "--Optimize"), valued("-j", "--jobs"), flag("-a", "--add"),
        flag("-r", "--replace"), flag("-R", "--remove"), flag("-C", "--Complain"), flag("-B", "--binary"),
        flag("-N", "--names"), flag("-S", "--stdout"), flag("-K", "--skip-cache"), flag("-T", "--skip-read-cache"),
        flag("-W", "--write-cache"), flag("-Q", "--skip-kernel-load"), flag("-p", "--preprocess"),
        flag("-k", "--show-cache"), flag("-q", "--quiet"), flag("-v", "--verbose"), flag("-V", "--version"),
        flag("-d", "--debug"), flag("-h", "--help"),
    ),
    operands=("PROFILE...",),
)  # fmt: skip

# `-e 0` turns auditing off (`1` on, `2` locks it on until reboot); `-D` deletes every rule, or
# those of the key `-k` names.
AUDITCTL = Program(
    ("auditctl",),
    syntax=Syntax(),
    help_forms=_HELP,
    options=(
        valued("-b"), valued("-e"), valued("-f"), valued("-r"), valued("-a"), valued("-A"), valued("-d"),
        valued("-w"), valued("-W"), valued("-p"), valued("-k"), valued("-F"), valued("-S"), valued("-C"),
        valued("-R"), valued("-q"), valued("--backlog_wait_time"), valued("--signal"), flag("-D"), flag("-l"),
        flag("-s"), flag("-i"), flag("-c"), flag("-t"), flag("-v"), flag("-h", "--help"), flag("--reset-lost"),
        flag("--loginuid-immutable"),
    ),
)  # fmt: skip

# SysV `service NAME ACTION`: the first operand ends the options.
SERVICE = Program(
    ("service",),
    syntax=POSIX,
    help_forms=HelpForms(("-h", "--help")),
    options=(flag("--status-all"), flag("--full-restart"), flag("-h", "--help"), flag("--version")),
    operands=("SERVICE", "ACTION", "OPTIONS..."),
)

# macOS: Gatekeeper's spctl, System Integrity Protection's csrutil, the preferences tool
# `defaults`, and the application firewall's socketfilterfw. `defaults write DOMAIN KEY -bool NO`:
# the type word is an operand, so the first operand ends the options.
SPCTL = Program(
    ("spctl",),
    options=(
        flag("--master-disable", "--global-disable"), flag("--master-enable", "--global-enable"), flag("--status"),
        flag("-a", "--assess"), flag("--add"), flag("--remove"), flag("--enable"), flag("--disable"),
        flag("-v", "--verbose"), valued("-t", "--type"), valued("--label"), valued("--path"),
    ),
    operands=("ARGUMENT...",),
)  # fmt: skip
CSRUTIL = Program(("csrutil",), syntax=POSIX, operands=("COMMAND", "ARGUMENT..."))
# FileVault's fdesetup: `fdesetup disable` decrypts the startup disk.
FDESETUP = Program(("fdesetup",), syntax=POSIX, operands=("COMMAND", "ARGUMENT..."))
# macOS's firmware variables: `nvram NAME=VALUE` sets one (`boot-args`), `-p` prints, `-d` deletes.
NVRAM = Program(
    ("nvram",),
    syntax=POSIX,
    options=(flag("-x"), flag("-p"), flag("-c"), valued("-f"), valued("-d")),
    operands=("VARIABLE...",),
)
DEFAULTS = Program(
    ("defaults",), syntax=POSIX, options=(flag("-currentHost"), valued("-host")), operands=("ARGUMENT...",)
)
SOCKETFILTERFW = Program(
    ("socketfilterfw",),
    options=(
        valued("--setglobalstate"), valued("--setstealthmode"), valued("--setblockall"), valued("--setallowsigned"),
        valued("--setallowsignedapp"), valued("--setloggingmode"), valued("--add"), valued("--remove"),
        flag("--getglobalstate"), flag("--getstealthmode"), flag("--getblockall"), flag("--listapps"),
    ),
)  # fmt: skip

# The system's trusted certificate authorities: macOS's `security add-trusted-cert FILE` (its other
# commands read the keychains: read as undeclared words, for the secret rules), and p11-kit's
# `trust anchor FILE` (`--remove` takes one away) on Fedora, Arch and others.
SECURITY = Program(("security",), operands=("COMMAND", "ARGUMENT..."))
TRUST = Program(
    ("trust",),
    subcommands=tree(
        leaf("anchor", flag("--store"), flag("--remove"), flag("-v", "--verbose"), flag("-q", "--quiet"),
             operands=("CERTIFICATE...",)),
        "list", "extract", "extract-compat", "dump", "check-format",
    ),
)  # fmt: skip

CONTROL_PROGRAMS: tuple[Program, ...] = (
    IPTABLES,
    NFT,
    UFW,
    FIREWALL_CMD,
    PFCTL,
    SETENFORCE,
    AA_TEARDOWN,
    AA_DISABLE,
    APPARMOR_PARSER,
    AUDITCTL,
    SERVICE,
    SPCTL,
    CSRUTIL,
    FDESETUP,
    NVRAM,
    DEFAULTS,
    SOCKETFILTERFW,
    SECURITY,
    TRUST,
)
