#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the kernel and initramfs of the mdadm test guest from Debian packages
# (environment.md, "mdadm in a VM"), cached under DIR (default build/vm):
#   DIR/vmlinuz, DIR/initrd.gz, DIR/kernel-version
# The initramfs holds a static busybox, the modules below with everything they
# depend on (insmod order computed from each module's depends= string), and an
# /init that mounts the host's root read-only over 9p under a tmpfs overlay,
# the writable 9p share "out" at /out, and runs /out/run in a chroot; it powers
# off whatever happens.
# Usage: tests/vm/build-guest.sh [DIR]
# Exit status: 0 built or cached, 77 cannot be built here (skip), 1 error.
set -eu
dir=${1:-build/vm}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
log() { echo "build-guest: $*" >&2; }
skip() { log "$*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "needs root (apt-get, qemu's 9p share of /)"
command -v apt-get >/dev/null || skip "no apt-get: not a Debian machine"

# Host tools: qemu, cpio, mdadm (run in the guest from the host's root),
# busybox-static (the initramfs's shell).
missing=()
command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
command -v cpio >/dev/null || missing+=(cpio)
command -v mdadm >/dev/null || missing+=(mdadm)
dpkg-query -W -f='${Status}' busybox-static 2>/dev/null | grep -q 'ok installed' || missing+=(busybox-static)
if [ ${#missing[@]} -gt 0 ]; then
	log "installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" </dev/null >"$dir/apt.log" 2>&1 ||
		{ apt-get update -q </dev/null >>"$dir/apt.log" 2>&1 &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" </dev/null >>"$dir/apt.log" 2>&1; } ||
		skip "apt-get install ${missing[*]} failed (see $dir/apt.log)"
fi
busybox=$(dpkg -L busybox-static | grep -m1 '/busybox$') || skip "busybox-static has no busybox binary"

# The current generic kernel: the -cloud- flavour has no 9p.
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -1)
if [ -z "$pkg" ]; then
	# No package lists: use what is cached, if anything.
	[ -s "$dir/vmlinuz" ] && [ -s "$dir/initrd.gz" ] && exit 0
	skip "cannot resolve linux-image-amd64 (apt-get update?)"
fi
kver=${pkg#linux-image-}
stamp="$kver $(sha256sum "$0" | cut -c1-16)"
if [ -s "$dir/vmlinuz" ] && [ -s "$dir/initrd.gz" ] && [ "$(cat "$dir/kernel-version" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi

log "building the guest for kernel $kver in $dir"
work=$(mktemp -d "$dir/work.XXXXXX")
trap 'rm -rf "$work"' EXIT
deb=$(find "$dir" -maxdepth 1 -name "${pkg}_*.deb" | head -1)
if [ -z "$deb" ]; then
	(cd "$work" && apt-get download -q "$pkg" </dev/null >"$work/download.log" 2>&1) ||
		{ cat "$work/download.log" >&2; skip "apt-get download $pkg failed"; }
	rm -f "$dir"/linux-image-*.deb
	mv "$work"/"$pkg"_*.deb "$dir"/
	deb=$(find "$dir" -maxdepth 1 -name "${pkg}_*.deb" | head -1)
fi
dpkg -x "$deb" "$work/kernel"
moddir=$work/kernel/lib/modules/$kver
[ -d "$moddir" ] || { log "no $moddir in $deb"; exit 1; }

# Every module by name (file names use - or _ interchangeably).
declare -A path
while IFS= read -r f; do
	b=$(basename "$f"); b=${b%%.ko*}; path[${b//-/_}]=$f
done < <(find "$moddir/kernel" -name '*.ko*')

modinfo_depends() { # module file -> its depends=, comma separated
	case $1 in
	*.ko.xz) xz -dc "$1" ;;
	*.ko.zst) zstd -dcq "$1" ;;
	*.ko.gz) gzip -dc "$1" ;;
	*) cat "$1" ;;
	esac | strings | sed -n 's/^depends=//p' | head -1
}

# Depth first: a module after everything it depends on.
order=()
declare -A seen
visit() {
	local m=${1//-/_} d
	[ -n "${seen[$m]:-}" ] && return 0
	seen[$m]=1
	[ -n "${path[$m]:-}" ] || { log "module $m is not in $kver"; return 1; }
	local deps
	deps=$(modinfo_depends "${path[$m]}")
	for d in ${deps//,/ }; do visit "$d" || return 1; done
	order+=("$m")
}
wanted="virtio_pci virtio_blk 9p 9pnet_virtio overlay crc32c_generic md_mod raid0 raid1 raid10 raid456
linear ext4 xfs btrfs dm_mod loop"
for m in $wanted; do
	if [ -z "${path[$m]:-}" ]; then
		# built into this kernel? then there is nothing to load
		grep -q "/${m//_/[-_]}.ko" "$moddir/modules.builtin" 2>/dev/null && continue
	fi
	visit "$m" || exit 1
done

root=$work/initramfs
mkdir -p "$root"/{bin,sbin,proc,sys,dev,newroot,host,rw,lib/modules}
cp "$busybox" "$root/bin/busybox"
for m in "${order[@]}"; do
	f=${path[$m]}
	case $f in
	*.ko.xz) xz -dc "$f" >"$root/lib/modules/$m.ko" ;;
	*.ko.zst) zstd -dcq "$f" >"$root/lib/modules/$m.ko" ;;
	*.ko.gz) gzip -dc "$f" >"$root/lib/modules/$m.ko" ;;
	*) cp "$f" "$root/lib/modules/$m.ko" ;;
	esac
done
printf '%s\n' "${order[@]}" >"$root/lib/modules/order"

cat >"$root/init" <<'EOF'
#!/bin/busybox sh
# The mdadm test guest's init: host root (ro, 9p) under a tmpfs overlay,
# results share at /out, run /out/run there, power off whatever happens.
export PATH=/bin:/sbin
/bin/busybox --install -s /bin
off() { echo "guest: $*"; sync; poweroff -f; sleep 5; echo o >/proc/sysrq-trigger; }
trap 'off "init interrupted"' INT TERM
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in $(cat /lib/modules/order); do
	insmod /lib/modules/$m.ko 2>/dev/null || echo "guest: insmod $m failed"
done
mount -t 9p -o trans=virtio,version=9p2000.L,ro hostroot /host || off "cannot mount the host root"
mount -t tmpfs -o size=60% rw /rw
mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work overlay /newroot ||
	off "cannot mount the overlay"
mount -t proc proc /newroot/proc
mount -t sysfs sys /newroot/sys
mount -t devtmpfs dev /newroot/dev
# No tmpfs over /tmp: the overlay already makes it writable, and a tree
# checked out under the host's /tmp (CI's clone) must stay visible.
mount -t tmpfs run /newroot/run 2>/dev/null
mkdir -p /newroot/out
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /newroot/out || off "cannot mount the out share"
# A memory cgroup for --cache cgroup: cgroup2 with the memory controller,
# or with ab_cgroup=v1 on the kernel's command line (run-guest.sh -c v1) a
# v1 memory hierarchy, whose writeback knows nothing of the group's limit.
if grep -qw ab_cgroup=v1 /proc/cmdline; then
	mount -t tmpfs -o size=1m,mode=755 cgroup /newroot/sys/fs/cgroup &&
		mkdir -p /newroot/sys/fs/cgroup/memory &&
		mount -t cgroup -o memory memory /newroot/sys/fs/cgroup/memory || echo "guest: no v1 memory cgroup"
elif mount -t cgroup2 none /newroot/sys/fs/cgroup 2>/dev/null; then
	echo +memory >/newroot/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
fi
echo "guest: up, running /out/run"
chroot /newroot /bin/sh -c 'cd /; exec /bin/bash /out/run </dev/null >/out/stdout 2>/out/stderr'
echo "$?" >/newroot/out/status
sync
umount /newroot/out
off "done"
EOF
chmod 755 "$root/init"

(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz"
cp "$work/kernel/boot/vmlinuz-$kver" "$work/vmlinuz"
mv "$work/vmlinuz" "$dir/vmlinuz"
mv "$work/initrd.gz" "$dir/initrd.gz"
echo "$stamp" >"$dir/kernel-version"
log "modules: ${order[*]}"
