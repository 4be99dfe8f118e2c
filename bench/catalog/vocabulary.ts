import type { RoleCategory, TagDimension } from '../../src/catalog/types.js';

/**
 * Word lists for the synthetic catalog. They aim at the shapes real data has (name lengths, title patterns,
 * location spellings, a long tail of tags), not at facts: every company here is invented.
 */

// biome-ignore format: word lists read better packed than one word per line
export const NAME_HEADS = [
  'Neural', 'Vector', 'Cortex', 'Lumen', 'Quanta', 'Axiom', 'Helix', 'Nimbus', 'Arbor', 'Sable', 'Vertex',
  'Cobalt', 'Tensor', 'Signal', 'Beacon', 'Atlas', 'Orbit', 'Kestrel', 'Mosaic', 'Prism', 'Delta', 'Juniper',
  'Harbor', 'Summit', 'Cinder', 'Falcon', 'Granite', 'Ember', 'Halo', 'Iris', 'Lattice', 'Meridian', 'Nova',
  'Onyx', 'Pioneer', 'Quill', 'Radiant', 'Sierra', 'Tidal', 'Umbra', 'Vanta', 'Willow', 'Zephyr', 'Aether',
  'Bright', 'Clear', 'Deep', 'Echo', 'Fathom', 'Glyph', 'Hyper', 'Index', 'Keystone', 'Loom', 'Mercury',
  'North', 'Open', 'Parallel', 'Relay', 'Spark', 'True', 'Unity', 'Verity', 'Wave', 'Xeno', 'Yield', 'Zenith',
  'Anchor', 'Blue', 'Canopy', 'Drift', 'Flux', 'Grove', 'Hollow', 'Ion', 'Jade', 'Kite', 'Lyra', 'Maple',
];

// biome-ignore format: word lists read better packed than one word per line
export const NAME_TAILS = [
  'AI', 'Labs', 'Systems', 'Data', 'Robotics', 'Health', 'Logic', 'Works', 'Analytics', 'Intelligence',
  'Cloud', 'Dynamics', 'Mind', 'Stack', 'Forge', 'Layer', 'Base', 'Flow', 'Scale', 'Sense', 'Bio', 'Security',
  'Finance', 'Legal', 'Grid', 'Path', 'Point', 'Shift', 'Sync', 'Vision', 'Voice', 'Agents', 'Ops', 'Hub',
];

/** One-word names ("Anthropic"-style) are built from these syllables. */
// biome-ignore format: word lists read better packed than one word per line
export const SYLLABLES = [
  'an', 'thro', 'pic', 'co', 'here', 'mis', 'tral', 'ver', 'ta', 'lo', 'ra', 'zen', 'qui', 'nex', 'ly', 'sa',
  'vi', 'dra', 'mo', 'ki', 'tu', 'ri', 'ba', 'lu', 'fa', 'no', 'ge', 'pa', 'shi', 'de', 'xa', 'or',
];

export const TLDS: readonly (readonly [string, number])[] = [
  ['ai', 5],
  ['com', 4],
  ['io', 2],
  ['co', 1],
  ['dev', 0.5],
];

// biome-ignore format: word lists read better packed than one word per line
export const PRODUCTS = [
  'AI copilots', 'agentic workflows', 'LLM evaluation', 'document intelligence', 'voice agents',
  'retrieval infrastructure', 'fraud detection', 'computer vision', 'model serving', 'synthetic data',
  'code generation', 'contract analysis', 'clinical documentation', 'demand forecasting', 'customer support automation',
  'sales intelligence', 'security operations', 'data labeling', 'GPU cloud', 'vector search', 'speech recognition',
  'robotic process automation', 'knowledge management', 'underwriting models', 'drug discovery models',
];

// biome-ignore format: word lists read better packed than one word per line
export const AUDIENCES = [
  'insurance carriers', 'hospitals', 'law firms', 'banks', 'retailers', 'manufacturers', 'logistics teams',
  'developers', 'security teams', 'sales teams', 'support teams', 'government agencies', 'pharma companies',
  'energy utilities', 'telecom operators', 'media companies', 'the public sector', 'mid-market SaaS', 'enterprises',
  'field service teams', 'finance teams', 'HR teams', 'recruiters', 'e-commerce brands', 'construction firms',
];

// biome-ignore format: word lists read better packed than one word per line
export const CITIES = [
  'San Francisco, CA', 'New York, NY', 'Seattle, WA', 'Austin, TX', 'Boston, MA', 'Chicago, IL', 'Los Angeles, CA',
  'Denver, CO', 'Atlanta, GA', 'Washington, DC', 'Palo Alto, CA', 'Mountain View, CA', 'San Jose, CA',
  'Toronto, Canada', 'Vancouver, Canada', 'Montreal, Canada', 'London, UK', 'Dublin, Ireland', 'Paris, France',
  'Berlin, Germany', 'Munich, Germany', 'Amsterdam, Netherlands', 'Zurich, Switzerland', 'Stockholm, Sweden',
  'Madrid, Spain', 'Barcelona, Spain', 'Milan, Italy', 'Warsaw, Poland', 'Tel Aviv, Israel', 'Bangalore, India',
  'Singapore', 'Tokyo, Japan', 'Seoul, South Korea', 'Sydney, Australia', 'Melbourne, Australia',
  'Sao Paulo, Brazil', 'Mexico City, Mexico', 'Miami, FL', 'Salt Lake City, UT', 'Raleigh, NC',
];

/** City weights: the first few hubs carry most postings, as on real boards. */
export const cityWeight = (index: number): number => 1 / (index + 2);

// biome-ignore format: word lists read better packed than one word per line
export const REMOTE_LOCATIONS = [
  'Remote', 'Remote - US', 'Remote (US)', 'Remote - Canada', 'Remote - EMEA', 'Remote (Europe)', 'Remote - UK',
  'Remote, Anywhere', 'US Remote', 'Remote - APAC',
];

export const SOURCES = ['greenhouse', 'lever', 'ashby', 'workable', 'smartrecruiters'] as const;

export const SENIORITY: readonly (readonly [string, number])[] = [
  ['', 6],
  ['Senior ', 5],
  ['Staff ', 1.5],
  ['Principal ', 1],
  ['Lead ', 1],
  ['Junior ', 0.5],
  ['Head of ', 0.3],
];

/** Base titles per role category; seniority, a team and a location suffix are added around them. */
// biome-ignore format: word lists read better packed than one word per line
export const TITLES: Record<RoleCategory, readonly string[]> = {
  fde: [
    'Forward Deployed Engineer', 'Forward Deployed Software Engineer', 'Forward Deployed AI Engineer',
    'Deployment Strategist', 'Field Engineer, AI Deployments', 'Applied AI Engineer, Customer Deployments',
  ],
  solutions_engineer: [
    'Solutions Engineer', 'Solutions Architect', 'AI Solutions Engineer', 'Solutions Consultant',
    'Enterprise Solutions Architect', 'Partner Solutions Engineer',
  ],
  csm: [
    'Customer Success Manager', 'Enterprise Customer Success Manager', 'Customer Success Lead',
    'Director of Customer Success', 'Strategic Customer Success Manager',
  ],
  tam: ['Technical Account Manager', 'Enterprise Technical Account Manager', 'TAM, Strategic Accounts'],
  sales_engineer: ['Sales Engineer', 'Pre-Sales Engineer', 'Customer Engineer', 'Sales Engineering Manager'],
  implementation: [
    'Implementation Manager', 'Implementation Engineer', 'Implementation Specialist', 'Onboarding Specialist',
    'Implementation Consultant',
  ],
  professional_services: [
    'Professional Services Consultant', 'Professional Services Engineer', 'Engagement Manager',
    'Delivery Consultant',
  ],
  engineering: [
    'Software Engineer', 'Backend Engineer', 'Frontend Engineer', 'Machine Learning Engineer', 'Infrastructure Engineer',
    'Site Reliability Engineer', 'Security Engineer', 'Platform Engineer', 'Full Stack Engineer',
    'Engineering Manager', 'Research Engineer', 'Distributed Systems Engineer',
  ],
  product: ['Product Manager', 'Technical Product Manager', 'Group Product Manager', 'Product Lead, Platform'],
  design: ['Product Designer', 'Brand Designer', 'UX Researcher', 'Design Engineer'],
  marketing: [
    'Product Marketing Manager', 'Content Marketing Manager', 'Growth Marketing Manager', 'Demand Generation Manager',
    'Communications Lead',
  ],
  data: ['Data Scientist', 'Data Engineer', 'Analytics Engineer', 'Data Analyst'],
  operations: ['Business Operations Manager', 'Revenue Operations Analyst', 'Program Manager', 'Workplace Coordinator'],
  sales: [
    'Account Executive', 'Enterprise Account Executive', 'Sales Development Representative', 'Partnerships Manager',
    'Business Development Representative',
  ],
  finance: ['Senior Accountant', 'FP&A Analyst', 'Controller', 'Payroll Specialist', 'Tax Manager'],
  hr: ['Technical Recruiter', 'People Partner', 'Talent Acquisition Lead', 'People Operations Specialist'],
  legal: ['Product Counsel', 'Commercial Counsel', 'Paralegal', 'Privacy Counsel'],
  other: ['Research Scientist', 'Policy Analyst', 'Executive Assistant', 'Support Specialist', 'Chief of Staff'],
};

/**
 * Share of postings per category. The catalog exists for client-facing roles, so those are over-represented
 * against a typical board (about 45% of postings), and engineering leads the broad categories.
 */
export const CATEGORY_WEIGHTS: readonly (readonly [RoleCategory, number])[] = [
  ['fde', 8],
  ['solutions_engineer', 9],
  ['csm', 8],
  ['tam', 4],
  ['sales_engineer', 6],
  ['implementation', 5],
  ['professional_services', 4],
  ['engineering', 22],
  ['product', 5],
  ['design', 2],
  ['marketing', 4],
  ['data', 4],
  ['operations', 3],
  ['sales', 8],
  ['finance', 1.5],
  ['hr', 2],
  ['legal', 1],
  ['other', 3.5],
];

export const DEPARTMENTS: Record<RoleCategory, string> = {
  fde: 'Forward Deployed Engineering',
  solutions_engineer: 'Solutions',
  csm: 'Customer Success',
  tam: 'Customer Success',
  sales_engineer: 'Sales Engineering',
  implementation: 'Implementation',
  professional_services: 'Professional Services',
  engineering: 'Engineering',
  product: 'Product',
  design: 'Design',
  marketing: 'Marketing',
  data: 'Data',
  operations: 'Operations',
  sales: 'Sales',
  finance: 'Finance',
  hr: 'People',
  legal: 'Legal',
  other: 'General',
};

// biome-ignore format: word lists read better packed than one word per line
export const TEAMS = ['Enterprise', 'Public Sector', 'EMEA', 'Healthcare', 'Financial Services', 'Platform', 'Growth'];

/** Tag vocabulary: 10 to 20 display values per dimension, with a long-tail weight (first values most common). */
// biome-ignore format: word lists read better packed than one word per line
export const TAG_VALUES: Record<TagDimension, readonly string[]> = {
  industry: [
    'Healthcare', 'Financial Services', 'Insurance', 'Legal', 'Retail & E-commerce', 'Manufacturing',
    'Logistics', 'Cybersecurity', 'Developer Tools', 'Education', 'Government', 'Energy', 'Media & Entertainment',
    'Telecommunications', 'Real Estate', 'Biotech', 'Automotive', 'Agriculture', 'HR Tech', 'Marketing Tech',
  ],
  stage: ['Pre-seed', 'Seed', 'Series A', 'Series B', 'Series C', 'Series D+', 'Growth', 'Public', 'Acquired', 'Bootstrapped'],
  business_model: [
    'B2B SaaS', 'Usage-based API', 'Enterprise License', 'Marketplace', 'Open Core', 'Services-led',
    'Consumer Subscription', 'Hardware + Software', 'Transaction Fees', 'Freemium', 'Outcome-based Pricing',
  ],
  ai_role: [
    'Foundation Models', 'AI Infrastructure', 'Applied AI', 'AI Agents', 'MLOps', 'Data Labeling',
    'AI Safety', 'Vertical AI', 'AI-enhanced SaaS', 'Computer Vision', 'Speech & Audio', 'Robotics', 'Search & Retrieval',
    'Generative Media',
  ],
  funding_tier: [
    'Under $10M', '$10M-$50M', '$50M-$100M', '$100M-$250M', '$250M-$500M', '$500M-$1B', '$1B+', 'Undisclosed',
    'Public Market', 'Self-funded',
  ],
};

// biome-ignore format: word lists read better packed than one word per line
export const RESPONSIBILITIES = [
  'Partner with customer engineering teams to design, build and ship production integrations.',
  'Own technical discovery and translate business problems into working prototypes within days.',
  'Lead onboarding for new enterprise accounts and drive them to measurable outcomes.',
  'Write production code in Python and TypeScript alongside our core engineering team.',
  'Run workshops with executives and practitioners to identify high-value use cases.',
  'Build evaluation harnesses that prove model quality on customer data.',
  'Feed what you learn in the field back into the product roadmap.',
  'Travel to customer sites up to 30% of the time.',
  'Maintain deep relationships with technical and business stakeholders across accounts.',
  'Debug complex distributed systems under real production load.',
  'Create reusable reference architectures, demos and documentation.',
  'Mentor teammates and raise the bar for technical depth across the team.',
];

// biome-ignore format: word lists read better packed than one word per line
export const REQUIREMENTS = [
  '4+ years of experience in a customer-facing technical role.',
  'Strong programming skills in Python, TypeScript or Go.',
  'Experience deploying machine learning or LLM-based systems in production.',
  'Excellent written and verbal communication with technical and non-technical audiences.',
  'Familiarity with cloud platforms (AWS, GCP or Azure) and Kubernetes.',
  'A track record of owning ambiguous problems end to end.',
  'Experience with data pipelines, SQL and modern data warehouses.',
  'Comfort presenting to executives and running complex evaluations.',
  'Bachelor degree in a technical field or equivalent practical experience.',
  'Prior startup experience is a plus.',
];

export const BENEFITS =
  'We offer competitive salary and equity, comprehensive health coverage, a flexible time-off policy, ' +
  'a learning budget and regular team offsites. We are an equal opportunity employer.';
