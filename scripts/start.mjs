#!/usr/bin/env node
// `npm start`: builds the site when its sources changed since the last build (scripts/build.mjs keeps their hash
// beside the build), then becomes the server (scripts/serve.mjs). A second start on unchanged sources skips the
// build and answers in seconds.
import { BuildError, build, buildIsCurrent } from './build.mjs';
import { serve } from './serve.mjs';

if (buildIsCurrent()) {
  console.log('The build is current (no source changed since it was made); starting the site.');
} else {
  try {
    await build();
  } catch (err) {
    console.error(err instanceof BuildError ? err.message : err);
    process.exit(1);
  }
}
serve();
