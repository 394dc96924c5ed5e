// A child process for the merge test: merges the segments of a data directory's index (argv[2],
// segments of argv[3] pages); the test kills it while the merged segment is being written.
import { TextIndex } from '../../indexer/text-index/text-index.ts';

const [dataDir, segmentSize] = process.argv.slice(2);
const index = await TextIndex.open(dataDir, { maxSegmentDocs: Number(segmentSize), autoMerge: false });
process.stdout.write('merging\n');
await index.merge();
process.stdout.write('merged\n');
await index.close();
