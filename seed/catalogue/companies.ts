import type { CompanySizeBand } from '../../src/domain/enums.js';

/** What companies are made of: industries and sectors, name parts, sizes, tags. */

export interface Industry {
  name: string;
  sector: string;
  /** Relative share of companies. */
  weight: number;
  /** Words that follow the brand in a company name ("Brightpath Payments"). */
  nameWords: readonly string[];
  /** Completes "It ..." in the about text. */
  activities: readonly string[];
  specialties: readonly string[];
}

export const INDUSTRIES: readonly Industry[] = [
  {
    name: 'Fintech',
    sector: 'Financial Services',
    weight: 12,
    nameWords: ['Pay', 'Payments', 'Capital', 'Finance', 'Money', 'Ledger'],
    activities: [
      'builds payment infrastructure for online merchants',
      'offers business accounts and cards to small companies',
      'runs a lending platform for growing businesses',
      'helps finance teams automate spend management',
    ],
    specialties: ['Payments', 'Open banking', 'Lending', 'Card issuing', 'Fraud prevention', 'Compliance'],
  },
  {
    name: 'Banking',
    sector: 'Financial Services',
    weight: 5,
    nameWords: ['Bank', 'Financial', 'Banking Group'],
    activities: [
      'serves retail and business customers across Europe',
      'is modernising its core banking platform',
      'provides private banking and wealth management',
    ],
    specialties: ['Retail banking', 'Wealth management', 'Risk', 'Core banking', 'Mobile banking'],
  },
  {
    name: 'Insurance',
    sector: 'Financial Services',
    weight: 4,
    nameWords: ['Insurance', 'Assurance', 'Cover'],
    activities: [
      'sells home, car and travel insurance online',
      'underwrites specialist commercial risks',
      'uses data to price insurance fairly',
    ],
    specialties: ['Insurtech', 'Claims automation', 'Underwriting', 'Pricing models'],
  },
  {
    name: 'Software',
    sector: 'Technology',
    weight: 14,
    nameWords: ['Software', 'Labs', 'Technologies', 'Systems', 'Digital'],
    activities: [
      'builds workflow software for operations teams',
      'makes collaboration tools used by distributed teams',
      'develops developer tooling for modern engineering teams',
      'delivers custom software for enterprise clients',
    ],
    specialties: ['B2B SaaS', 'Developer tools', 'Workflow automation', 'APIs', 'Integrations'],
  },
  {
    name: 'SaaS',
    sector: 'Technology',
    weight: 9,
    nameWords: ['Cloud', 'HQ', 'App', 'Works', 'Hub'],
    activities: [
      'sells a subscription platform to mid-market companies',
      'helps sales teams manage their pipeline',
      'gives HR teams one place for people data',
      'automates invoicing and billing for subscription businesses',
    ],
    specialties: ['B2B SaaS', 'CRM', 'HR tech', 'Billing', 'Product analytics'],
  },
  {
    name: 'Artificial Intelligence',
    sector: 'Technology',
    weight: 6,
    nameWords: ['AI', 'Intelligence', 'Labs', 'Analytics'],
    activities: [
      'builds AI assistants for customer service teams',
      'trains language models for regulated industries',
      'applies computer vision to quality control in factories',
    ],
    specialties: ['Machine learning', 'Generative AI', 'Computer vision', 'NLP', 'MLOps'],
  },
  {
    name: 'Cybersecurity',
    sector: 'Technology',
    weight: 5,
    nameWords: ['Security', 'Secure', 'Defence', 'Shield'],
    activities: [
      'protects companies from ransomware and phishing',
      'runs a managed security operations centre',
      'secures identities and access for enterprises',
    ],
    specialties: ['Threat detection', 'Identity and access', 'Managed SOC', 'Cloud security'],
  },
  {
    name: 'E-commerce',
    sector: 'Consumer',
    weight: 7,
    nameWords: ['Commerce', 'Shop', 'Market', 'Store'],
    activities: [
      'runs an online marketplace for independent brands',
      'sells fashion and homeware online across Europe',
      'delivers groceries in under an hour',
    ],
    specialties: ['Marketplace', 'Logistics', 'Personalisation', 'Checkout', 'Mobile commerce'],
  },
  {
    name: 'Retail',
    sector: 'Consumer',
    weight: 4,
    nameWords: ['Retail', 'Stores', 'Group'],
    activities: [
      'operates stores and an online shop across the region',
      'is moving its retail operations onto a modern digital platform',
    ],
    specialties: ['Omnichannel retail', 'Supply chain', 'Loyalty', 'Store systems'],
  },
  {
    name: 'Health Tech',
    sector: 'Healthcare & Life Sciences',
    weight: 6,
    nameWords: ['Health', 'Care', 'Medical', 'Clinic'],
    activities: [
      'offers online GP appointments',
      'builds software for hospitals and clinics',
      'helps patients manage long-term conditions from home',
    ],
    specialties: ['Digital health', 'Telemedicine', 'Clinical software', 'Medical devices', 'Patient data'],
  },
  {
    name: 'Biotech',
    sector: 'Healthcare & Life Sciences',
    weight: 3,
    nameWords: ['Bio', 'Therapeutics', 'Genomics'],
    activities: [
      'uses machine learning to discover new medicines',
      'develops sequencing tools for research labs',
    ],
    specialties: ['Drug discovery', 'Genomics', 'Bioinformatics', 'Lab automation'],
  },
  {
    name: 'Telecommunications',
    sector: 'Media & Telecoms',
    weight: 3,
    nameWords: ['Telecom', 'Networks', 'Mobile', 'Connect'],
    activities: ['runs fibre and mobile networks', 'provides connectivity to businesses and homes'],
    specialties: ['5G', 'Fibre', 'Network automation', 'IoT connectivity'],
  },
  {
    name: 'Media & Entertainment',
    sector: 'Media & Telecoms',
    weight: 3,
    nameWords: ['Media', 'Studios', 'Stream'],
    activities: [
      'streams video and audio to millions of subscribers',
      'publishes digital news and magazines',
    ],
    specialties: ['Streaming', 'Digital publishing', 'Advertising technology', 'Content platforms'],
  },
  {
    name: 'Gaming',
    sector: 'Media & Telecoms',
    weight: 3,
    nameWords: ['Games', 'Studios', 'Interactive', 'Play'],
    activities: [
      'makes mobile games played by millions every month',
      'develops multiplayer titles for PC and console',
    ],
    specialties: ['Mobile games', 'Game engines', 'Live operations', 'Multiplayer'],
  },
  {
    name: 'Automotive',
    sector: 'Industrials',
    weight: 4,
    nameWords: ['Mobility', 'Automotive', 'Motors', 'Drive'],
    activities: [
      'writes software for connected and electric vehicles',
      'supplies driver-assistance systems to car makers',
    ],
    specialties: ['Electric vehicles', 'Autonomous driving', 'Embedded software', 'Connected cars'],
  },
  {
    name: 'Manufacturing',
    sector: 'Industrials',
    weight: 3,
    nameWords: ['Industries', 'Engineering', 'Manufacturing', 'Robotics'],
    activities: [
      'builds industrial machinery and the software that runs it',
      'brings automation and robotics to factory floors',
    ],
    specialties: ['Industry 4.0', 'Robotics', 'Industrial IoT', 'Process automation'],
  },
  {
    name: 'Logistics',
    sector: 'Industrials',
    weight: 4,
    nameWords: ['Logistics', 'Freight', 'Delivery', 'Transport'],
    activities: [
      'moves freight across Europe with its digital platform',
      'runs last-mile delivery for online retailers',
    ],
    specialties: ['Route optimisation', 'Freight marketplace', 'Warehouse automation', 'Fleet tracking'],
  },
  {
    name: 'Energy',
    sector: 'Energy & Utilities',
    weight: 4,
    nameWords: ['Energy', 'Power', 'Renewables', 'Grid'],
    activities: [
      'supplies renewable electricity to homes and businesses',
      'builds software that balances the power grid',
      'installs and manages heat pumps and solar panels',
    ],
    specialties: ['Renewables', 'Smart grid', 'Energy trading', 'Climate tech'],
  },
  {
    name: 'Travel & Hospitality',
    sector: 'Consumer',
    weight: 3,
    nameWords: ['Travel', 'Trips', 'Hotels', 'Journeys'],
    activities: [
      'helps travellers book trips across Europe',
      'builds booking and revenue software for hotels',
    ],
    specialties: ['Online booking', 'Revenue management', 'Travel marketplace'],
  },
  {
    name: 'Education',
    sector: 'Public Sector & Education',
    weight: 3,
    nameWords: ['Learning', 'Academy', 'Education', 'Edu'],
    activities: ['runs online courses for working professionals', 'builds learning software for schools'],
    specialties: ['Edtech', 'Online learning', 'Assessment', 'Learning platforms'],
  },
  {
    name: 'Government',
    sector: 'Public Sector & Education',
    weight: 2,
    nameWords: ['Public Services', 'Digital Services', 'Civic'],
    activities: [
      'delivers digital public services to citizens',
      'modernises legacy systems for public bodies',
    ],
    specialties: ['GovTech', 'Digital transformation', 'Accessibility', 'Case management'],
  },
  {
    name: 'Consulting',
    sector: 'Professional Services',
    weight: 6,
    nameWords: ['Consulting', 'Partners', 'Advisory', 'Solutions'],
    activities: [
      'helps enterprises move to the cloud',
      'delivers data and AI projects for large clients',
      'builds digital products for banks, retailers and governments',
    ],
    specialties: ['Digital transformation', 'Cloud migration', 'Data strategy', 'Nearshore delivery'],
  },
  {
    name: 'Real Estate',
    sector: 'Real Estate',
    weight: 2,
    nameWords: ['Property', 'Homes', 'Estates', 'Spaces'],
    activities: [
      'makes renting and buying a home simpler',
      'manages flexible office spaces across major cities',
    ],
    specialties: ['Proptech', 'Property management', 'Smart buildings'],
  },
];

/** Recruitment agencies post roles for clients; searches hide them unless asked for. */
export const AGENCY_INDUSTRY: Industry = {
  name: 'Recruitment & Staffing',
  sector: 'Professional Services',
  weight: 0,
  nameWords: [
    'Recruitment',
    'Talent',
    'Search',
    'Resourcing',
    'Talent Partners',
    'Tech Recruitment',
    'People',
  ],
  activities: [
    'places software engineers and data specialists with clients across Europe',
    'recruits technology contractors and permanent staff',
    'runs executive search for technology leadership roles',
  ],
  specialties: ['Technology recruitment', 'Contract staffing', 'Executive search', 'Talent mapping', 'RPO'],
};

/** Brand words are a start and an end joined ("Bright" + "path"): 48 × 48 distinct words. */
export const BRAND_STARTS: readonly string[] = [
  'Blue',
  'Bright',
  'Clear',
  'Cloud',
  'Core',
  'Deep',
  'Ever',
  'Fair',
  'Fern',
  'Flex',
  'Fox',
  'Fresh',
  'Gold',
  'Green',
  'Harbour',
  'High',
  'Iron',
  'Kite',
  'Lark',
  'Light',
  'Lumen',
  'Maple',
  'Mint',
  'North',
  'Nova',
  'Oak',
  'Open',
  'Orbit',
  'Peak',
  'Pine',
  'Pixel',
  'Prime',
  'Quant',
  'Red',
  'River',
  'Sage',
  'Silver',
  'Sky',
  'Snow',
  'Solid',
  'Star',
  'Stone',
  'Swift',
  'Terra',
  'True',
  'Vale',
  'Wave',
  'Zen',
];

export const BRAND_ENDS: readonly string[] = [
  'base',
  'bay',
  'beam',
  'bit',
  'bloom',
  'bridge',
  'craft',
  'dale',
  'desk',
  'field',
  'flow',
  'forge',
  'gate',
  'grid',
  'hive',
  'hub',
  'lane',
  'leaf',
  'line',
  'link',
  'logic',
  'mark',
  'mind',
  'nest',
  'path',
  'point',
  'port',
  'scale',
  'shift',
  'sight',
  'signal',
  'span',
  'spark',
  'sphere',
  'stack',
  'stream',
  'tide',
  'trail',
  'ware',
  'wise',
  'works',
  'yard',
  'loop',
  'cast',
  'fold',
  'ly',
  'io',
  'ify',
];

/** Legal forms by country, added to some names. */
export const LEGAL_FORMS: Readonly<Record<string, readonly string[]>> = {
  GB: ['Ltd'],
  IE: ['Ltd', 'DAC'],
  DE: ['GmbH', 'AG', 'SE'],
  AT: ['GmbH', 'AG'],
  CH: ['AG', 'SA', 'GmbH'],
  PL: ['sp. z o.o.', 'S.A.'],
  RO: ['SRL', 'S.A.'],
  BG: ['OOD', 'EOOD', 'AD'],
  NL: ['B.V.', 'N.V.'],
  FR: ['SAS', 'SA'],
  ES: ['S.L.', 'S.A.'],
  PT: ['Lda', 'S.A.'],
  US: ['Inc.', 'LLC'],
};

export const WEB_DOMAINS: Readonly<Record<string, string>> = {
  GB: 'co.uk',
  IE: 'ie',
  DE: 'de',
  AT: 'at',
  CH: 'ch',
  PL: 'pl',
  RO: 'ro',
  BG: 'bg',
  NL: 'nl',
  FR: 'fr',
  ES: 'es',
  PT: 'pt',
  US: 'com',
};

export interface SizeOption {
  size: string;
  /** Company age range in years for this band and size. */
  ages: readonly [number, number];
  /** Relative share within the band. */
  weight: number;
}

/**
 * Size strings per band. The bands overlap in head count (a 30-person company is a startup
 * when young, small when established), so age decides between them.
 */
export const SIZES_BY_BAND: Readonly<Record<CompanySizeBand, readonly SizeOption[]>> = {
  startup: [
    { size: '1-10', ages: [0, 3], weight: 35 },
    { size: '11-50', ages: [1, 5], weight: 65 },
  ],
  scale_up: [{ size: '51-200', ages: [3, 10], weight: 1 }],
  small: [
    { size: '11-50', ages: [6, 40], weight: 45 },
    { size: '51-200', ages: [8, 50], weight: 55 },
  ],
  medium: [
    { size: '201-500', ages: [8, 60], weight: 55 },
    { size: '501-1,000', ages: [10, 80], weight: 45 },
  ],
  enterprise: [
    { size: '1,001-5,000', ages: [12, 90], weight: 50 },
    { size: '5,001-10,000', ages: [15, 110], weight: 25 },
    { size: '10,000+', ages: [20, 150], weight: 25 },
  ],
};

export const SIZE_BAND_SHARES: ReadonlyArray<readonly [CompanySizeBand, number]> = [
  ['startup', 25],
  ['scale_up', 20],
  ['small', 25],
  ['medium', 18],
  ['enterprise', 12],
];

/** How many more roles a company of each band posts than a startup does. */
export const HIRING_WEIGHT_BY_BAND: Readonly<Record<CompanySizeBand, number>> = {
  startup: 1,
  scale_up: 3,
  small: 1.5,
  medium: 4,
  enterprise: 8,
};

/** Agencies post many roles for their clients. */
export const AGENCY_HIRING_WEIGHT = 5;

export const STAGE_TAGS: Readonly<Record<CompanySizeBand, readonly string[]>> = {
  startup: ['Seed stage', 'Series A', 'Founder-led', 'VC-backed'],
  scale_up: ['Series B', 'Series C', 'Hypergrowth', 'VC-backed'],
  small: ['Profitable', 'Bootstrapped', 'Family-owned', 'Independent'],
  medium: ['Profitable', 'Private equity-backed', 'International', 'Established'],
  enterprise: ['Listed company', 'Global', 'Household name', 'Established'],
};

export const WORKPLACE_TAGS: readonly string[] = [
  'B2B',
  'B2C',
  'Remote-first',
  'Hybrid working',
  'Diverse team',
  'Engineering-led',
  'Mission-driven',
  'Carbon neutral',
  'Great Place to Work',
];
