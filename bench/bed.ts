/**
 * What a study that runs the real Pulumi CLI opens and closes around its measurements: a local
 * cloud (simulated cache nodes), a sandbox (tests/harness/engine) and a project of its own in that
 * cloud, with the native plugin installed into the sandbox where the study needs it.
 */
import { startLocalCloud, type LocalCloud } from "../local-cloud";
import { installNativePlugin, newProject, Sandbox, type CloudProject } from "../tests/harness/engine";

export interface StudyBed {
  cloud: LocalCloud;
  sandbox: Sandbox;
  project: CloudProject;
}

/**
 * Runs `body` with a bed labelled `bench-<label>` (its project `project`), closed after it, whatever it
 * did: closing the cloud and removing the sandbox removes the stacks too, so a study does not destroy them.
 */
export async function withBed<T>(o: { label: string; project: string; plugin?: boolean }, body: (bed: StudyBed) => Promise<T>): Promise<T> {
  const cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
  const sandbox = new Sandbox({ label: `bench-${o.label}` });
  try {
    const project = await newProject(cloud, o.project);
    if (o.plugin) await installNativePlugin(sandbox);
    return await body({ cloud, sandbox, project });
  } finally {
    await cloud.close();
    sandbox.cleanup();
  }
}
