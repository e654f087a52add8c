import type { CredentialStore } from "../../core/credentials";
import { AuthBackend } from "./auth";
import { ContainerBackend } from "./containers";
import { ExtensionBackend } from "./extension";
import { LargeObjectBackend } from "./large-objects";
import { ListingBackend } from "./listing";
import { MultipartBackend } from "./multipart";
import { ObjectBackend } from "./objects";
import { ObjectStorageState } from "./state";

export { SERVICE, type BucketStats } from "./state";
export type { ListBucketsQuery } from "./extension";
export type { AccountStats } from "./containers";
export type { ListEntry, ListObjectsQuery } from "./listing";
export type { ObjectContent, PutObjectInput } from "./objects";

/**
 * Object storage backend (moto's split): one shared state, and one backend per API area with one
 * method per operation. Routes parse and validate, then call exactly these methods; the control
 * API is ../control.ts, over the same state.
 */
export class ObjectStorageBackend {
  readonly state: ObjectStorageState;
  readonly auth: AuthBackend;
  readonly extension: ExtensionBackend;
  readonly containers: ContainerBackend;
  readonly largeObjects: LargeObjectBackend;
  readonly objects: ObjectBackend;
  readonly multipart: MultipartBackend;
  readonly listing: ListingBackend;

  /** `blobDir` holds the object and part bodies (the snapshot holds only their ids). */
  constructor(now: () => number, credentials: CredentialStore, blobDir: string) {
    this.state = new ObjectStorageState(now, credentials, blobDir);
    this.auth = new AuthBackend(this.state);
    this.extension = new ExtensionBackend(this.state);
    this.containers = new ContainerBackend(this.state, this.extension);
    this.largeObjects = new LargeObjectBackend(this.state);
    this.objects = new ObjectBackend(this.state, this.largeObjects);
    this.multipart = new MultipartBackend(this.state, this.objects);
    this.listing = new ListingBackend();
  }
}
