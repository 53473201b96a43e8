import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take minutes, slowest first. Vitest orders a run by the durations it remembers, and without them (a fresh
 * clone, as in CI) by file size: these small, long files would start last and leave one worker running them alone.
 */
const SLOW = [
  'test/inventory-ledger.property.test.ts',
  'test/backup-living-demo.test.ts',
  'test/alarm-status-living-demo.test.ts',
  'test/backup.test.ts',
  'test/route-fuzz.test.ts',
  'test/route-security.test.ts',
  'test/backups-admin.test.ts',
  'test/export-files.test.ts',
  'test/split-deployment.test.ts',
  'test/telemetry-mqtt.test.ts',
  'test/snmp.test.ts',
  'test/video-cameras.test.ts',
];

export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // within each project, as Vitest groups them: a worker moves on to the next file only within its project
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    const rank = (spec: TestSpecification) => {
      const i = SLOW.findIndex((path) => spec.moduleId.endsWith(path));
      return i < 0 ? SLOW.length : i;
    };
    return sorted
      .map((spec, order) => ({ spec, order, project: projects.indexOf(spec.project.name), rank: rank(spec) }))
      .sort((a, b) => a.project - b.project || a.rank - b.rank || a.order - b.order)
      .map(({ spec }) => spec);
  }
}
