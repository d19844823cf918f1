import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// Lazy screens and mocked fetches settle within milliseconds, but on a busy 2-core machine (CI runs the suites
// beside each other's builds) a first render took over the default second; waiting longer costs passing tests nothing.
configure({ asyncUtilTimeout: 5000 });
import '../src/lib/i18n';
