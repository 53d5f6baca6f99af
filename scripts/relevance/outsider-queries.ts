import type { Judged, Means, Tool } from './evaluate.js';

/**
 * The outsider set (docs/search-quality.md, "The two judged sets"): a second judged set, written
 * by someone who had not seen the vocabulary, the analysis, the readings or the first set, from
 * the demo catalogue alone (its titles, skills, industries and places), the way recruiters and
 * their assistants type into search_leads, search_companies and the filters of
 * get_market_insights: levels and job-board titles, a skill named as a title, skills with
 * versions and vendors, broad skills, industries and places as people say them, misspellings.
 * Each query says what a person means over the fields of a role, without regard to how the search
 * reads it; `nothing` marks a query where nothing in the index is what the person asked for.
 */

type Kind =
  | 'level'
  | 'job board'
  | 'skill title'
  | 'role noun'
  | 'trap'
  | 'skill form'
  | 'broad skill'
  | 'industry'
  | 'place'
  | 'companies'
  | 'insights'
  | 'combined'
  | 'nothing';

export interface OutsiderQuery extends Judged {
  kind: Kind;
}

const query = (kind: Kind, args: Record<string, unknown>, means: Means, tool?: Tool): OutsiderQuery => ({
  kind,
  args,
  means,
  ...(tool ? { tool } : {}),
});
const title = (kind: Kind, typed: string, means: Means) => query(kind, { title: typed }, means);
const skills = (kind: Kind, typed: string[], canonical: string[]) =>
  query(kind, { skills: typed }, { skills: canonical });
const industry = (typed: string, canonical: string[], kind: Kind = 'industry') =>
  query(kind, { industry: typed }, { industries: canonical });
const place = (typed: string, means: Means, kind: Kind = 'place') => query(kind, { location: typed }, means);
const NOTHING: Means = { nothing: true };

/** Every word (or one of the alternatives "A|B") is a whole word of the title, in any order. */
function words(...wanted: string[]): RegExp {
  const literal = (word: string) => word.replace(/[.+]/g, (character) => `\\${character}`);
  const lookaheads = wanted.map(
    (word) => `(?=.*(?<![\\w.#+])(?:${word.split('|').map(literal).join('|')})(?![\\w#+]))`,
  );
  return new RegExp(`^${lookaheads.join('')}`, 'i');
}

/** "Frontend Developer" and "Frontend Engineer" are one job; so is a "Go Engineer" and a Go developer. */
const DEV = 'Developer|Engineer';
/** The index's entry-level prefixes: a junior role is advertised as Junior, Graduate or Associate. */
const ENTRY = 'Junior|Graduate|Associate';
/** A hands-on engineering role, whatever its specialty. */
const ENGINEERING_ROLE = words(DEV);

/** Skills that are machine learning, and those that are AI more broadly (the index has no "Machine Learning" skill). */
const ML_SKILLS = [
  'PyTorch',
  'TensorFlow',
  'scikit-learn',
  'MLOps',
  'NLP',
  'Computer Vision',
  'LLMs',
  'Hugging Face',
  'AWS SageMaker',
];
const AI_SKILLS = [...ML_SKILLS, 'LangChain', 'Vector Databases'];
const CLOUD_SKILLS = ['AWS', 'Azure', 'GCP', 'Cloud Architecture', 'Cloud Security', 'AWS SageMaker'];
const FRONTEND_SKILLS = [
  'JavaScript',
  'React',
  'Angular',
  'Vue.js',
  'Next.js',
  'HTML',
  'CSS',
  'Redux',
  'Tailwind CSS',
];

/** The countries of the index by the regions people name; the index has roles in 13 countries. */
const EUROPE = ['GB', 'IE', 'DE', 'AT', 'CH', 'PL', 'RO', 'BG', 'NL', 'FR', 'PT', 'ES'];
const EU = ['IE', 'DE', 'AT', 'PL', 'RO', 'BG', 'NL', 'FR', 'PT', 'ES'];
const DACH = ['DE', 'AT', 'CH'];
const CEE = ['PL', 'RO', 'BG'];

export const OUTSIDER_QUERIES: readonly OutsiderQuery[] = [
  // Levels: a company's level numbers (II, III, 2) say nothing the index can match and are not
  // words of its titles; Sr/Snr mean Senior; a junior role is advertised as Junior, Graduate or
  // Associate; mid-level is the level without a prefix.
  title('level', 'Software Engineer II', { title: words('Software', 'Engineer') }),
  title('level', 'SWE III', { title: words('Software', 'Engineer') }),
  title('level', 'Software Engineer 2', { title: words('Software', 'Engineer') }),
  title('level', 'Data Engineer III', { title: words('Data', 'Engineer') }),
  title('level', 'Sr. Data Engineer', { title: words('Senior', 'Data', 'Engineer') }),
  title('level', 'Sr Java Developer', { title: words('Senior', 'Java', DEV) }),
  title('level', 'Snr Frontend Developer', { title: words('Senior', 'Frontend', DEV) }),
  title('level', 'Jr. Frontend Developer', { title: words(ENTRY, 'Frontend', DEV) }),
  title('level', 'Jr Python Developer', { title: words(ENTRY, 'Python', DEV) }),
  title('level', 'Junior Data Analyst', { title: words(ENTRY, 'Data', 'Analyst') }),
  title('level', 'Graduate Software Engineer', { title: words('Graduate', 'Software', 'Engineer') }),
  title('level', 'Entry level QA engineer', { title: words(ENTRY, 'QA', 'Engineer') }),
  title('level', 'mid-level Python developer', { title: words('Python', DEV), levels: ['Mid'] }),
  title('level', 'Mid Level Data Scientist', { title: words('Data', 'Scientist'), levels: ['Mid'] }),
  title('level', 'Staff/Principal Engineer', { title: /^(Staff|Principal)\b.*\bEngineer\b/i }),
  title('level', 'Principal Engineer', { title: /^Principal\b.*\bEngineer\b/i }),
  // Corrected after the first run: the words pattern also counted "Lead Technical Product Manager".
  title('level', 'Tech Lead', { title: /\bTechnical Lead\b/i }),
  title('level', 'VP Engineering', { title: /^VP of Engineering$/i }),
  title('level', 'Head of Eng', { title: /^Head of Engineering$/i }),
  title('level', 'Chief Technical Officer', { title: /^Chief Technology Officer$/i }),

  // Titles as job boards write them: a place, a work arrangement or a gender marker inside,
  // the specialty after the role noun, alternatives with a slash.
  title('job board', 'Data Engineer - London', { title: words('Data', 'Engineer'), cities: ['London'] }),
  title('job board', 'Java Developer, Berlin', { title: words('Java', DEV), cities: ['Berlin'] }),
  title('job board', 'Senior Backend Engineer (Remote)', {
    title: words('Senior', 'Backend', DEV),
    workType: 'Remote',
  }),
  title('job board', 'Platform Engineer | Munich', { title: words('Platform', DEV), cities: ['Munich'] }),
  title('job board', 'Frontend Developer (Hybrid)', { title: words('Frontend', DEV), workType: 'Hybrid' }),
  title('job board', 'Software Engineer - Remote (UK)', {
    title: words('Software', 'Engineer'),
    workType: 'Remote',
    countries: ['GB'],
  }),
  title('job board', 'DevOps Engineer (m/w/d)', { title: words('DevOps', DEV) }),
  title('job board', 'Java Entwickler (m/w/d)', { title: words('Java', DEV) }),
  title('job board', 'Frontend Entwickler', { title: words('Frontend', DEV) }),
  title('job board', 'Data Scientist (f/m/x)', { title: words('Data', 'Scientist') }),
  title('job board', 'Engineer - Backend', { title: words('Backend', DEV) }),
  title('job board', 'Engineer, Data', { title: words('Data', 'Engineer') }),
  title('job board', 'Developer (Frontend)', { title: words('Frontend', DEV) }),
  title('job board', 'Backend/Platform Engineer', { title: /\b(Backend|Platform) (Engineer|Developer)\b/i }),
  title('job board', 'DevOps/SRE', { title: /\b(DevOps|Site Reliability) Engineer\b/i }),
  title('job board', 'iOS/Android Developer', { title: /\b(iOS|Android) (Developer|Engineer)\b/i }),
  title('job board', 'UX/UI Designer', { title: /\b(UX|UI) Designer\b/i }),
  title('job board', 'QA/Test Engineer', { title: /\b(QA|Test)\b.*\bEngineer\b/i }),
  title('job board', 'Product Owner/Manager', { title: /\bProduct (Owner|Manager)\b/i }),
  title('job board', 'Data Scientist / ML Engineer', {
    title: /\b(Data Scientist|Machine Learning Engineer|MLOps Engineer)\b/i,
  }),
  title('job board', 'Cloud Engineer (AWS)', { title: words('Cloud', 'Engineer'), skills: ['AWS'] }),
  // A language roles are titled by: its developers are software engineers in it too (ninth round).
  title('job board', 'Software Engineer (Java)', {
    title: /\bSoftware\b.*\bEngineer\b|\bJava (Engineer|Developer)\b/i,
    skills: ['Java'],
  }),
  title('job board', 'Data Engineer (Spark)', { title: words('Data', 'Engineer'), skills: ['Spark'] }),

  // A title that names a skill: when no title has that word, the person means a developer or
  // engineer whose role needs the skill; when titles do ("React Developer"), those titles.
  title('skill title', 'javascript developer', { title: ENGINEERING_ROLE, skills: ['JavaScript'] }),
  title('skill title', 'javascript dev', { title: ENGINEERING_ROLE, skills: ['JavaScript'] }),
  title('skill title', 'JS developer', { title: ENGINEERING_ROLE, skills: ['JavaScript'] }),
  title('skill title', 'typescript engineer', { title: ENGINEERING_ROLE, skills: ['TypeScript'] }),
  title('skill title', 'Kubernetes engineer', { title: ENGINEERING_ROLE, skills: ['Kubernetes'] }),
  title('skill title', 'AWS engineer', { title: ENGINEERING_ROLE, skills: ['AWS'] }),
  title('skill title', 'SQL developer', { title: ENGINEERING_ROLE, skills: ['SQL'] }),
  title('skill title', 'Terraform engineer', { title: ENGINEERING_ROLE, skills: ['Terraform'] }),
  title('skill title', 'Spark developer', { title: ENGINEERING_ROLE, skills: ['Spark'] }),
  title('skill title', 'Django developer', { title: ENGINEERING_ROLE, skills: ['Django'] }),
  title('skill title', 'Spring Boot developer', { title: ENGINEERING_ROLE, skills: ['Spring Boot'] }),
  title('skill title', 'Laravel developer', { title: ENGINEERING_ROLE, skills: ['Laravel'] }),
  title('skill title', 'Swift developer', { title: ENGINEERING_ROLE, skills: ['Swift'] }),
  title('skill title', 'Kafka engineer', { title: ENGINEERING_ROLE, skills: ['Kafka'] }),
  title('skill title', 'Power BI developer', { title: ENGINEERING_ROLE, skills: ['Power BI'] }),
  title('skill title', 'C# developer', { title: ENGINEERING_ROLE, skills: ['C#'] }),
  title('skill title', 'LLM engineer', { title: ENGINEERING_ROLE, skills: ['LLMs'] }),
  title('skill title', 'AWS architect', { title: words('Architect'), skills: ['AWS'] }),
  title('skill title', 'Azure architect', { title: words('Architect'), skills: ['Azure'] }),
  title('skill title', 'Linux administrator', { title: words('Administrator'), skills: ['Linux'] }),
  title('skill title', 'Kotlin Android dev', { title: words('Android', DEV), skills: ['Kotlin'] }),
  title('skill title', 'Senior React Native developer', {
    title: words('Senior', DEV),
    skills: ['React Native'],
  }),
  title('skill title', 'react dev', { title: words('React', DEV) }),
  title('skill title', 'python engineer', { title: words('Python', DEV) }),
  title('skill title', 'Java Engineer', { title: words('Java', DEV) }),
  title('skill title', 'Golang developer', { title: words('Go', DEV) }),
  title('skill title', 'Rails developer', { title: words('Ruby', 'Rails', DEV) }),
  title('skill title', 'Vue developer', { title: words('Vue.js', DEV) }),
  title('skill title', 'Node developer', { title: words('Node.js', DEV) }),
  title('skill title', 'Salesforce developer', { title: words('Salesforce', DEV) }),
  title('skill title', 'Java programmer', { title: words('Java', DEV) }),
  title('skill title', 'PHP programmer', { title: words('PHP', DEV) }),

  // Other names for the role.
  title('role noun', 'software developer', { title: words('Software', DEV) }),
  title('role noun', 'web developer', { title: /\b(Frontend|Full Stack)\b.*\b(Developer|Engineer)\b/i }),
  title('role noun', 'Software Engineer in Test', { title: words('SDET') }),
  title('role noun', 'Cyber Security Engineer', { title: words('Security', 'Engineer') }),
  title('role noun', 'Cybersecurity Analyst', { title: words('Cyber', 'Security', 'Analyst') }),
  title('role noun', 'Ethical hacker', { title: words('Penetration', 'Tester') }),
  title('role noun', 'Helpdesk Analyst', { title: words('Service', 'Desk', 'Analyst') }),
  title('role noun', 'Mobile developer', {
    title: /\b(Mobile (Engineer|Developer)|(iOS|Android|Flutter) (Developer|Engineer))\b/i,
  }),
  title('role noun', 'BI Analyst', { title: words('Business', 'Intelligence', 'Analyst') }),
  title('role noun', 'Product Manager (Technical)', { title: words('Technical', 'Product', 'Manager') }),
  title('role noun', 'Machine learning', { title: /\b(Machine Learning|MLOps)\b/i }),

  // Precision traps: what a person means and what shares its letters.
  title('trap', 'CIO', { title: /^Chief Information Officer$/i }),
  title('trap', 'CISO', { title: /^Chief Information Security Officer$/i }),
  title('trap', 'engineer', { title: words('Engineer') }),
  title('trap', 'Data Engineers', { title: words('Data', 'Engineer') }),
  title('trap', 'Head of Data', { title: /^Head of Data\b/i }),
  skills('trap', ['Java 17'], ['Java']),
  skills('trap', ['React'], ['React']),
  skills('trap', ['React Native'], ['React Native']),
  skills('trap', ['Git'], ['Git']),
  skills('trap', ['R'], ['R']),
  skills('trap', ['C'], ['Embedded C']),

  // Skills as people write them: versions, vendors, brackets, two in one, other spellings.
  skills('skill form', ['Kubernetes (k8s)'], ['Kubernetes']),
  skills('skill form', ['AWS Lambda'], ['AWS']),
  skills('skill form', ['Python 3'], ['Python']),
  skills('skill form', ['Postgres 15'], ['PostgreSQL']),
  skills('skill form', ['Azure DevOps'], ['Azure']),
  skills('skill form', ['GCP/BigQuery'], ['GCP', 'BigQuery']),
  skills('skill form', ['Amazon Web Services'], ['AWS']),
  skills('skill form', ['Google Cloud Platform'], ['GCP']),
  skills('skill form', ['Microsoft Azure'], ['Azure']),
  skills('skill form', ['Apache Kafka'], ['Kafka']),
  skills('skill form', ['PySpark'], ['Spark']),
  skills('skill form', ['Vue 3'], ['Vue.js']),
  skills('skill form', ['Angular 2+'], ['Angular']),
  skills('skill form', ['.NET Core'], ['.NET']),
  skills('skill form', ['C# .NET'], ['C#', '.NET']),
  skills('skill form', ['Node'], ['Node.js']),
  skills('skill form', ['Spring'], ['Spring Boot']),
  skills('skill form', ['Rails'], ['Ruby on Rails']),
  skills('skill form', ['Objective C'], ['Objective-C']),
  skills('skill form', ['C/C++'], ['C++', 'Embedded C']),
  skills('skill form', ['Go (Golang)'], ['Go']),
  skills('skill form', ['CI CD'], ['CI/CD']),
  skills('skill form', ['CICD'], ['CI/CD']),
  skills('skill form', ['Github Actions'], ['GitHub Actions']),
  skills('skill form', ['GitLab'], ['GitLab CI']),
  skills('skill form', ['PowerBI'], ['Power BI']),
  skills('skill form', ['MS Excel'], ['Excel']),
  skills('skill form', ['Agile/Scrum'], ['Agile', 'Scrum']),
  skills('skill form', ['pen testing'], ['Penetration Testing']),
  skills('skill form', ['Selenium WebDriver'], ['Selenium']),
  skills('skill form', ['ISO27001'], ['ISO 27001']),
  skills('skill form', ['ELK'], ['Elasticsearch']),
  skills('skill form', ['Javascript (ES6)'], ['JavaScript']),
  skills('skill form', ['TypeScript/JavaScript'], ['TypeScript', 'JavaScript']),
  skills('skill form', ['NextJS 14'], ['Next.js']),
  skills('skill form', ['Tensorflow 2'], ['TensorFlow']),
  skills('skill form', ['Huggingface'], ['Hugging Face']),
  skills('skill form', ['LLM'], ['LLMs']),
  skills('skill form', ['large language models'], ['LLMs']),
  skills('skill form', ['vector DB'], ['Vector Databases']),
  skills('skill form', ['data modeling'], ['Data Modelling']),
  skills('skill form', ['threat modeling'], ['Threat Modelling']),
  skills('skill form', ['AB testing'], ['A/B Testing']),
  skills('skill form', ['unit tests'], ['Unit Testing']),
  skills('skill form', ['SIEM (Splunk)'], ['SIEM', 'Splunk']),
  skills('skill form', ['O365'], ['Office 365']),
  skills('skill form', ['Service Now'], ['ServiceNow']),
  skills('skill form', ['S/4HANA'], ['SAP S/4HANA']),
  skills('skill form', ['DDD'], ['Domain-Driven Design']),
  skills('skill form', ['event driven'], ['Event-Driven Architecture']),
  skills('skill form', ['REST'], ['REST APIs']),
  skills('skill form', ['Flutter/Dart'], ['Flutter', 'Dart']),
  skills('skill form', ['Docker/Kubernetes'], ['Docker', 'Kubernetes']),
  skills('skill form', ['Sagemaker'], ['AWS SageMaker']),
  skills('skill form', ['natural language processing'], ['NLP']),

  // Broad skills: a field of work the index lists as its several tools.
  skills('broad skill', ['ML'], ML_SKILLS),
  skills('broad skill', ['machine learning'], ML_SKILLS),
  skills('broad skill', ['AI'], AI_SKILLS),
  skills('broad skill', ['GenAI'], ['LLMs', 'LangChain']),
  skills('broad skill', ['cloud'], CLOUD_SKILLS),
  skills('broad skill', ['frontend'], FRONTEND_SKILLS),

  // Industries as people say them.
  industry('fintech', ['Fintech']),
  industry('FinTech', ['Fintech']),
  industry('fin tech', ['Fintech']),
  industry('financial services', ['Fintech', 'Banking', 'Insurance']),
  industry('healthtech', ['Health Tech']),
  industry('healthcare', ['Health Tech']),
  industry('medtech', ['Health Tech']),
  industry('life sciences', ['Biotech', 'Health Tech']),
  industry('B2B SaaS', ['SaaS']),
  industry('govtech', ['Government']),
  industry('public sector', ['Government']),
  industry('edtech', ['Education']),
  industry('insurtech', ['Insurance']),
  industry('proptech', ['Real Estate']),
  industry('ecommerce', ['E-commerce']),
  industry('AI', ['Artificial Intelligence']),
  industry('machine learning', ['Artificial Intelligence']),
  industry('cyber', ['Cybersecurity']),
  industry('infosec', ['Cybersecurity']),
  industry('telco', ['Telecommunications']),
  industry('video games', ['Gaming']),
  industry('supply chain', ['Logistics']),
  industry('cleantech', ['Energy']),
  industry('travel', ['Travel & Hospitality']),
  industry('IT consulting', ['Consulting']),
  industry('property', ['Real Estate']),
  industry('banks', ['Banking']),
  industry('biotechnology', ['Biotech']),
  industry('media', ['Media & Entertainment']),

  // Places as people say them: work arrangements, regions of several countries, city nicknames,
  // a country's adjective, local and misspelt names.
  place('remote', { workType: 'Remote' }),
  place('Remote UK', { workType: 'Remote', countries: ['GB'] }),
  place('Remote - Germany', { workType: 'Remote', countries: ['DE'] }),
  place('UK (Remote)', { workType: 'Remote', countries: ['GB'] }),
  place('Berlin (Hybrid)', { workType: 'Hybrid', cities: ['Berlin'] }),
  place('Europe', { countries: EUROPE }),
  place('EMEA', { countries: EUROPE }),
  place('EU', { countries: EU }),
  place('DACH', { countries: DACH }),
  place('Benelux', { countries: ['NL'] }),
  place('Iberia', { countries: ['ES', 'PT'] }),
  place('CEE', { countries: CEE }),
  place('Eastern Europe', { countries: CEE }),
  place('UK&I', { countries: ['GB', 'IE'] }),
  place('North America', { countries: ['US'] }),
  place('Bay Area', { cities: ['San Francisco'] }),
  place('SF', { cities: ['San Francisco'] }),
  place('NYC', { cities: ['New York'] }),
  place('US East Coast', { cities: ['New York', 'Boston'] }),
  place('Greater London', { cities: ['London'] }),
  place('London, England', { cities: ['London'] }),
  place('German', { countries: ['DE'] }),
  place('Swiss', { countries: ['CH'] }),
  place('Dutch', { countries: ['NL'] }),
  place('Polish', { countries: ['PL'] }),
  place('British', { countries: ['GB'] }),
  place('Irish', { countries: ['IE'] }),
  place('Muenchen', { cities: ['Munich'] }),
  place('Amsterdan', { cities: ['Amsterdam'] }),
  place('Zuerich', { cities: ['Zurich'] }),
  place('Dusseldorf', { cities: ['Düsseldorf'] }),
  place('Koeln', { cities: ['Cologne'] }),
  place('Krakow', { cities: ['Kraków'] }),
  place('Lodz', { cities: ['Łódź'] }),
  place('Frankfurt am Main', { cities: ['Frankfurt'] }),
  place('Cluj', { cities: ['Cluj-Napoca'] }),
  place('Manchaster', { cities: ['Manchester'] }),
  place('Edinbrugh', { cities: ['Edinburgh'] }),

  // Nothing in the index is like these: the honest answer is no roles (and a note).
  title('nothing', 'Scrum Master', NOTHING),
  title('nothing', 'Blockchain Developer', NOTHING),
  title('nothing', 'Recruiter', NOTHING),
  query('nothing', { skills: ['Solidity'] }, NOTHING),
  query('nothing', { skills: ['COBOL'] }, NOTHING),
  industry('crypto', [], 'nothing'),
  industry('web3', [], 'nothing'),
  place('Nordics', NOTHING, 'nothing'),
  place('Scandinavia', NOTHING, 'nothing'),
  place('APAC', NOTHING, 'nothing'),
  place('Tokyo', NOTHING, 'nothing'),

  // The same readings in search_companies (companies with a matching role)…
  query(
    'companies',
    { hiring_for_title: 'Sr. Data Engineer' },
    { title: words('Senior', 'Data', 'Engineer') },
    'search_companies',
  ),
  query(
    'companies',
    { hiring_for_title: 'javascript developer' },
    { title: ENGINEERING_ROLE, skills: ['JavaScript'] },
    'search_companies',
  ),
  query(
    'companies',
    { hiring_for_title: 'Software Engineer II' },
    { title: words('Software', 'Engineer') },
    'search_companies',
  ),
  query('companies', { skills: ['Kubernetes (k8s)'] }, { skills: ['Kubernetes'] }, 'search_companies'),
  query('companies', { skills: ['ML'] }, { skills: ML_SKILLS }, 'search_companies'),
  query('companies', { location: 'DACH' }, { countries: DACH }, 'search_companies'),
  query('companies', { location: 'remote' }, { workType: 'Remote' }, 'search_companies'),
  query('companies', { industry: 'healthtech' }, { industries: ['Health Tech'] }, 'search_companies'),
  query('companies', { industry: 'crypto' }, NOTHING, 'search_companies'),
  query(
    'companies',
    { hiring_for_title: 'react dev', location: 'Europe' },
    { title: words('React', DEV), countries: EUROPE },
    'search_companies',
  ),
  query('companies', { location: 'Bay Area' }, { cities: ['San Francisco'] }, 'search_companies'),

  // …and in the filters of get_market_insights (the roles it counts).
  query(
    'insights',
    { title: 'javascript dev' },
    { title: ENGINEERING_ROLE, skills: ['JavaScript'] },
    'get_market_insights',
  ),
  query('insights', { location: 'Europe' }, { countries: EUROPE }, 'get_market_insights'),
  query(
    'insights',
    { location: 'Remote UK' },
    { workType: 'Remote', countries: ['GB'] },
    'get_market_insights',
  ),
  query('insights', { skills: ['AWS Lambda'] }, { skills: ['AWS'] }, 'get_market_insights'),
  query(
    'insights',
    { industry: 'fintech', location: 'DACH' },
    { industries: ['Fintech'], countries: DACH },
    'get_market_insights',
  ),
  query(
    'insights',
    { title: 'SWE III', location: 'NYC' },
    { title: words('Software', 'Engineer'), cities: ['New York'] },
    'get_market_insights',
  ),
  query('insights', { skills: ['cloud'] }, { skills: CLOUD_SKILLS }, 'get_market_insights'),
  query(
    'insights',
    { title: 'Data Engineer - London' },
    { title: words('Data', 'Engineer'), cities: ['London'] },
    'get_market_insights',
  ),

  // Several filters at once, as an assistant fills them in.
  query(
    'combined',
    { title: 'python engineer', location: 'Remote UK' },
    { title: words('Python', DEV), workType: 'Remote', countries: ['GB'] },
  ),
  query(
    'combined',
    { title: 'Sr. Java Developer', location: 'Muenchen' },
    { title: words('Senior', 'Java', DEV), cities: ['Munich'] },
  ),
  query(
    'combined',
    { skills: ['k8s', 'AWS Lambda'], location: 'Europe' },
    { skills: ['Kubernetes', 'AWS'], countries: EUROPE },
  ),
  query(
    'combined',
    { title: 'ML engineer', industry: 'fintech', location: 'DACH' },
    { title: /\b(Machine Learning|MLOps) Engineer\b/i, industries: ['Fintech'], countries: DACH },
  ),
  query(
    'combined',
    { title: 'javascript developer', location: 'Poland' },
    { title: ENGINEERING_ROLE, skills: ['JavaScript'], countries: ['PL'] },
  ),
  query('combined', { skills: ['ML'], location: 'remote' }, { skills: ML_SKILLS, workType: 'Remote' }),
];
