# perfgate for the action, sourced by scripts/ci/action.sh: `key` names the build (the
# cache key and the install folder), `install` builds it there, or, when the cache brought
# the folder back, installs only the Debian packages the binary loads.
# shellcheck shell=bash disable=SC2154 # pg, out, root: set by action.sh, which sources this

# The build's identity: the version in CMakeLists.txt, a digest of everything the build
# reads, the OS release and the machine. The action arrives as a tarball without .git, so
# the digest is of the files themselves; a moving tag (v1) that gets new commits gets a new
# key, a rebuild.
install_key() {
  local version digest os arch
  version=$(sed -n 's/^project(perfgate VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
  digest=$(cd "$root" && find CMakeLists.txt cmake src include web examples scripts/install-deps.sh \
    -type f ! -path 'examples/bin/*' -print0 2>/dev/null | LC_ALL=C sort -z |
    xargs -0 sha256sum | sha256sum | cut -c1-16)
  os=$(. /etc/os-release && echo "${ID}${VERSION_ID:-}")
  arch=$(uname -m)
  local prefix=${PERFGATE_PREFIX:-${RUNNER_TOOL_CACHE:-$HOME/.cache}/perfgate/$version-$digest}
  set_output key "perfgate-$version-$os-$arch-$digest"
  set_output prefix "$prefix"
  set_output version "$version"
  echo "perfgate $version ($digest) for $os $arch in $prefix"
}

apt_install() { # apt_install PACKAGE...: those not installed yet
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  say "installing ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The Debian packages of the libraries the installed binaries load: those linked (ldd) and
# those perfgate opens on first use (libgit2, libpq, libcurl, libcrypto: their sonames are
# in the build's generated header). A cache hit on a fresh runner installs just these.
runtime_packages() { # runtime_packages BUILD_DIR PREFIX
  local header=$1/generated/perfgate_build_paths.hpp lib path
  {
    # ldd fails on the static perfgate-spawner ("not a dynamic executable"): not an error.
    { ldd "$2/bin/perfgate" "$2/bin/perfgate-spawner" "$2"/lib/perfgate/*.so 2>/dev/null || true; } |
      awk '/=> \// {print $3}'
    for lib in $(grep -o '"lib[^"]*\.so[.0-9]*"' "$header" | tr -d '"'); do
      ldconfig -p | awk -v s="$lib" '$1 == s {found = $NF} END {if (found) print found}'
    done
  } | sort -u | while read -r path; do
    owner_package "$path" || say "no Debian package owns $path: not recorded"
  done | sort -u
}

# owner_package PATH: the package that installed a library. With merged /usr, dpkg knows
# some files under /lib (libc6) and others under /usr/lib (libfmt9): try each spelling.
owner_package() {
  local real candidate found
  real=$(readlink -f "$1")
  for candidate in "$1" "$real" "/usr${1#/usr}" "${1#/usr}" "/usr${real#/usr}" "${real#/usr}"; do
    found=$(dpkg -S "$candidate" 2>/dev/null | sed -n '1s/:.*//p') || true
    if [ -n "$found" ]; then
      echo "$found"
      return 0
    fi
  done
  return 1
}

install_perfgate() {
  local prefix=${PERFGATE_PREFIX:?PERFGATE_PREFIX: the install folder (action.sh key prints it)}
  command -v dpkg-query >/dev/null || fail 66 "the action installs perfgate on Debian or Ubuntu runners only"
  # Always: git (history, ab's base checkout) and python3 (this script reads JSON with it);
  # Valgrind counts instructions where the runner has no hardware counters (GitHub's do not).
  local always=(git python3 ca-certificates)
  case "${INPUT_MEASURE:-}" in *instructions*) always+=(valgrind) ;; esac
  local list=$prefix/share/perfgate-action/runtime-packages
  if [ -x "$prefix/bin/perfgate" ] && [ -f "$list" ]; then
    say "perfgate from the cache: $prefix"
    # shellcheck disable=SC2046
    apt_install "${always[@]}" $(cat "$list")
  else
    bash "$root/scripts/install-deps.sh"
    apt_install "${always[@]}"
    local build
    build=$(mktemp -d "${RUNNER_TEMP:-/tmp}/perfgate-build.XXXXXX")
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPERFGATE_BUILD_TESTS=OFF \
      -DPERFGATE_BUILD_BENCH=OFF >/dev/null
    cmake --build "$build"
    cmake --install "$build" --prefix "$prefix" >/dev/null
    mkdir -p "$(dirname "$list")"
    runtime_packages "$build" "$prefix" >"$list"
    rm -rf "$build"
  fi
  "$prefix/bin/perfgate" --version
  set_output perfgate "$prefix/bin/perfgate"
}
