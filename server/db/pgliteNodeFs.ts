import { mkdirSync } from 'node:fs';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { OWNER_DIRECTORY_MODE, ownerOnly, tightenTree } from './ownerOnlyFiles';

/**
 * The embedded database's data folder is its owner's alone (issue 30, ownerOnlyFiles.ts).
 *
 * PGlite writes its data folder through Emscripten's NODEFS, which sets the host's modes itself:
 * a file is created with mode 0777 and then chmod-ed to the mode the writer asked for, so the
 * process umask never applies to it, and PGlite's own JavaScript writers (initdb's copy into the
 * folder, a dump unpacked, postgresql.conf) ask for 0666. OwnerOnlyNodeFS is PGlite's NodeFS with
 * NODEFS's three mode setters (a node's `mknod`, a node's and an open file's `setattr`) clearing the
 * group and other bits, so every file and folder PGlite ever writes there is its owner's alone,
 * later ones included.
 */
interface NodeFsModeSetters {
  node_ops: {
    mknod: (parent: unknown, name: string, mode: number, dev: number) => unknown;
    setattr: (node: unknown, attr: { mode?: number }) => void;
  };
  stream_ops: {
    setattr: (stream: unknown, attr: { mode?: number }) => void;
  };
}

const attrOwnerOnly = (attr: { mode?: number }) => (attr.mode === undefined ? attr : { ...attr, mode: ownerOnly(attr.mode) });
const restricted = new WeakSet<object>();

/** Makes a NODEFS (one Emscripten module's) create and chmod owner-only; once per NODEFS object. */
function restrictNodeFs(nodefs: NodeFsModeSetters): void {
  if (restricted.has(nodefs)) return;
  const { node_ops: nodeOps, stream_ops: streamOps } = nodefs;
  // A PGlite whose NODEFS has other entry points would write with modes nobody checked: refuse it.
  if (typeof nodeOps?.mknod !== 'function' || typeof nodeOps.setattr !== 'function' || typeof streamOps?.setattr !== 'function') {
    throw new Error("PGlite's NODEFS has no mknod/setattr to restrict: the data folder's modes cannot be kept owner-only");
  }
  const { mknod } = nodeOps;
  const setNodeAttr = nodeOps.setattr;
  const setStreamAttr = streamOps.setattr;
  nodeOps.mknod = (parent, name, mode, dev) => mknod.call(nodeOps, parent, name, ownerOnly(mode), dev);
  nodeOps.setattr = (node, attr) => setNodeAttr.call(nodeOps, node, attrOwnerOnly(attr));
  streamOps.setattr = (stream, attr) => setStreamAttr.call(streamOps, stream, attrOwnerOnly(attr));
  restricted.add(nodefs);
}

/** PGlite's NodeFS on `dataDir`, every file and folder it writes owner-only (the folder itself too). */
export class OwnerOnlyNodeFS extends NodeFS {
  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true, mode: OWNER_DIRECTORY_MODE });
    tightenTree(dataDir);
    super(dataDir);
  }

  override init(...[pg, opts]: Parameters<NodeFS['init']>): ReturnType<NodeFS['init']> {
    // Before NodeFS's own step, which mounts NODEFS on the data folder.
    const restrict = (mod: { NODEFS: unknown }) => restrictNodeFs(mod.NODEFS as NodeFsModeSetters);
    return super.init(pg, { ...opts, preRun: [...(opts.preRun ?? []), restrict] });
  }
}

