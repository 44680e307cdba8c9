export declare const ROOT: string;

export interface PublishedPackage {
  readonly name: string;
  readonly dir: string;
}

export interface Tarball {
  readonly name: string;
  /** The tarball's path. */
  readonly file: string;
  /** Bytes: the tarball, and its files unpacked. */
  readonly size: number;
  readonly unpackedSize: number;
}

export declare function publishedPackages(): PublishedPackage[];
export declare function packAll(destination: string): Promise<Tarball[]>;
export declare function npm(
  args: readonly string[],
  cwd: string,
  env?: NodeJS.ProcessEnv,
): Promise<{ stdout: string; stderr: string }>;
export declare function userEnv(extra?: Record<string, string>): NodeJS.ProcessEnv;
