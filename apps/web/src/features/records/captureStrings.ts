import i18n from '../../lib/i18n';

/**
 * The captures section's strings, in namespace `capture`. They ride in the record detail chunk instead of the locale
 * files, whose English is part of every page's entry script (the home page's budget) and which only detail pages of
 * records that cite links need.
 */
const strings = {
  en: {
    archived: 'Archived {{date}}',
    screenshotHash: 'Screenshot SHA-256',
    archiveHash: 'Archive SHA-256',
    download: 'Download the archive (MHTML)',
    downloadWacz: 'Download the web archive (WACZ, signed)',
    waczHash: 'WACZ SHA-256',
    httpStatus: 'HTTP {{status}}',
    redirected: 'Redirected to {{url}}',
    replaced: 'Loaded {{first}} (HTTP {{firstStatus}}), then the page replaced itself with {{url}}',
    waiting: 'Waiting to be archived',
    processing: 'Being archived now',
    failed: 'The page could not be archived',
    reason: 'Reason (shown to the record\'s editors): {{reason}}',
    copyHash: 'Copy SHA-256',
    notYet: 'Not archived yet',
    history: 'All captures ({{count}})',
    again: 'Capture the links again',
    requestAction: 'Capture request',
    requested: 'New captures were requested; they appear here when done.',
    publicDownload: 'Anyone who can read this record may download its archives',
    settingAction: 'Archive download setting',
    settingSaved: 'Saved.',
  },
  am: {
    archived: '{{date}} ተቀምጧል',
    screenshotHash: 'የገጽ ምስል SHA-256',
    archiveHash: 'የማህደር SHA-256',
    download: 'ማህደሩን አውርድ (MHTML)',
    downloadWacz: 'የድር ማህደሩን አውርድ (WACZ፣ የተፈረመ)',
    waczHash: 'የWACZ SHA-256',
    httpStatus: 'HTTP {{status}}',
    redirected: 'ወደ {{url}} ተዛውሯል',
    replaced: '{{first}} (HTTP {{firstStatus}}) ተከፍቶ ገጹ ራሱን በ{{url}} ተክቷል',
    waiting: 'በማህደር ለመቀመጥ በመጠባበቅ ላይ',
    processing: 'አሁን በማህደር በመቀመጥ ላይ ነው',
    failed: 'ገጹ በማህደር ሊቀመጥ አልቻለም',
    reason: 'ምክንያት (ለመዝገቡ አርታኢዎች ብቻ የሚታይ)፦ {{reason}}',
    copyHash: 'SHA-256 ቅዳ',
    notYet: 'ገና አልተቀመጠም',
    history: 'ሁሉም ቅጂዎች ({{count}})',
    again: 'አገናኞቹን እንደገና ቅዳ',
    requestAction: 'የቅጂ ጥያቄ',
    requested: 'አዲስ ቅጂዎች ተጠይቀዋል፤ ሲጠናቀቁ እዚህ ይታያሉ።',
    publicDownload: 'ይህን መዝገብ ማንበብ የሚችል ማንኛውም ሰው ማህደሮቹን ማውረድ ይችላል',
    settingAction: 'የማህደር ማውረድ ቅንብር',
    settingSaved: 'ተቀምጧል።',
  },
} as const;

type CaptureStringKey = keyof (typeof strings)['en'];

for (const [language, bundle] of Object.entries(strings)) i18n.addResourceBundle(language, 'capture', bundle, true, true);

/** The key of a capture string for `t`. */
export const captureKey = (key: CaptureStringKey) => `capture:${key}`;
