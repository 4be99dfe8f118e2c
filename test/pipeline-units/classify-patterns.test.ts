import { describe, expect, it } from 'vitest';
import { explainRole } from '../../src/pipeline/classify/classify.js';

/**
 * Phrase patterns that carry from one company's wording to another's: each case is a pattern (a rank-only title
 * with its role in brackets, a team named in brackets or in the department, a keyword inside another phrase), shown
 * with two wordings so that no case is a single memorised title.
 */
const category = (title: string, department?: string) => explainRole({ title, department }).category;

describe('role classification patterns', () => {
  it('reads the role a rank-only title puts in brackets, and keeps the rank when the brackets name no function', () => {
    expect(category('Member of Technical Staff (Data Scientist)', 'AI')).toBe('data');
    expect(category('Member of Technical Staff (Forward Deployed Engineer, Applied AI)')).toBe('fde');
    expect(category('Member of Technical Staff (AI Researcher)')).toBe('other');
    expect(category('Member of Technical Staff (Search)')).toBe('engineering');
    expect(category('Member of Technical Staff, Inference')).toBe('engineering');
  });

  it('a growth or retention title takes the customer team its brackets or department name', () => {
    expect(explainRole({ title: 'Retention Lead (Customer Success)' })).toEqual({
      category: 'csm',
      rule: 'department:csm',
    });
    expect(category('Growth Manager', 'Customer Success')).toBe('csm');
    expect(category('Retention Lead (EMEA)')).not.toBe('csm');
  });

  it('an implementation whose department is data-center construction is operations, not onboarding', () => {
    expect(
      explainRole({ title: 'Implementation Project Manager', department: 'Data Center Construction' }),
    ).toEqual({ category: 'operations', rule: 'title:construction-implementation' });
    expect(category('Implementation Project Manager', 'Customer Onboarding')).toBe('implementation');
    expect(category('Silicon Implementation Engineer, Front End', 'Hardware')).toBe('engineering');
    expect(category('Physical Implementation Engineer')).toBe('engineering');
  });

  it('applied AI architecture teams and applied field engineering architects are solutions engineering', () => {
    expect(category('Manager of Applied AI Architecture, Industries', 'Sales')).toBe('solutions_engineer');
    expect(category('Global Applied AI Architecture Lead', 'Applied AI')).toBe('solutions_engineer');
    expect(category('Senior AI/ML Architect, Applied Field Engineering', 'Engineering')).toBe(
      'solutions_engineer',
    );
    expect(category('Head of ANZ, Applied AI', 'Sales')).toBe('solutions_engineer');
    expect(category('Data Architect', 'Engineering')).toBe('data');
  });

  it('a keyword inside another phrase does not decide', () => {
    expect(category('Cluster Deployment Engineer', 'Compute')).toBe('engineering');
    expect(category('Datacenter Deployment Engineer')).toBe('engineering');
    expect(category('Human Rights & Responsible Deployment Lead')).not.toBe('implementation');
    expect(category('Director, Infrastructure Capex Accounting', 'Finance')).toBe('finance');
    expect(category('Director, Compute & Infrastructure FP&A')).toBe('finance');
    expect(category('Infrastructure Engineer')).toBe('engineering');
    expect(category('Head of Growth Partnerships')).toBe('sales');
  });

  it('sales strategy and operations roles are operations, not sales', () => {
    expect(category('Sales Strategy and Ops, EMEA', 'Sales')).toBe('operations');
    expect(category('Manager, Sales Strategy & Operations')).toBe('operations');
    expect(category('Revenue Strategy & Operations Lead', 'Sales')).toBe('operations');
  });

  it('fellows, researcher/engineer titles and user-experience researchers take their function', () => {
    expect(category('Anthropic Fellows Program — AI Safety', 'AI Research & Engineering')).toBe('other');
    expect(category('Compute Optimization Researcher/Engineer')).toBe('other');
    expect(category('Data Scientist/Engineer – Online Metrics')).toBe('data');
    expect(category('User Experience Researcher')).toBe('design');
    expect(category('Art Director', 'Creative')).toBe('design');
    expect(category('Market Research Lead')).toBe('data');
  });

  it('a technical specialist in a sales organisation is a sales engineer, elsewhere not', () => {
    expect(category('Technical Specialist', 'Sales')).toBe('sales_engineer');
    expect(category('Technical Specialist, Claude Code', 'Sales')).toBe('sales_engineer');
    expect(category('Technical Specialist', 'IT')).not.toBe('sales_engineer');
  });

  it('an intern takes the function the title names, like any other seniority word', () => {
    expect(category('Data Science Intern, Summer 2026', 'Engineering')).toBe('data');
    expect(category('2026 Account Representative Intern, US - Sales', 'Business & Sales')).toBe('sales');
    expect(category('Software Engineer Intern (Backend)')).toBe('engineering');
    expect(category('Intern')).toBe('other');
  });

  it('a solutions architect or engineer for internal business systems is engineering, not client-facing', () => {
    expect(category('Solutions Architect - Total Rewards', 'Engineering')).toBe('engineering');
    expect(category('Solution Architect L4 - Workday Solutions', 'Engineering')).toBe('engineering');
    expect(category('Solutions Engineer, Finance Systems')).toBe('engineering');
    expect(category('Solutions Architect, Enterprise', 'Solutions Architecture')).toBe('solutions_engineer');
  });

  it('user experience and design titles are design', () => {
    expect(category('Director User Experience & Design')).toBe('design');
    expect(category('User Experience and Graphic Design')).toBe('design');
  });

  it('program managers by acronym and business-system administrators are operations', () => {
    expect(category('TPM Manager, Compute & Infrastructure', 'Technical Program Management')).toBe(
      'operations',
    );
    expect(category('Senior TPM, Payments')).toBe('operations');
    expect(category('Salesforce Administrator', 'Sales')).toBe('operations');
    expect(category('Workday Admin')).toBe('operations');
    expect(category('Procurement Enablement Lead', 'Finance')).toBe('finance');
  });

  it('an analyst takes the function its qualifiers name; a generic analyst stays data', () => {
    expect(category('Analyst, FP&A')).toBe('finance');
    expect(category('AP Specialist, EMEA')).toBe('finance');
    expect(category('GTM Systems Analyst')).toBe('operations');
    expect(category('People Systems Analyst', 'People')).toBe('hr');
    expect(category('SOC Analyst II')).toBe('engineering');
    expect(category('Senior Analyst')).toBe('data');
  });

  it('operations inside an engineering phrase is engineering; IT operations is support', () => {
    expect(category('Network Operations Engineer')).toBe('engineering');
    expect(category('Machine Learning Operations Engineer, Platform')).toBe('engineering');
    expect(category('Network Operations Manager')).toBe('operations');
    expect(category('IT Operations Analyst')).toBe('other');
  });

  it('engagement and delivery managers of internal teams are not professional services', () => {
    expect(category('Support Engagement Manager')).toBe('other');
    expect(category('Technical Delivery Manager, Platform Engineering')).toBe('operations');
    expect(category('Engagement Manager', 'Professional Services')).toBe('professional_services');
    expect(category('Delivery Manager, Customer Programs')).toBe('professional_services');
  });

  it('a hyphen with a space on one side ends the main segment, one inside a word does not', () => {
    expect(category('Finance Manager -Professional Services Practice')).toBe('finance');
    expect(category('Process Architect- Quote to Cash')).toBe('engineering');
    expect(category('Full-Stack Engineer')).toBe('engineering');
  });

  it('technical adoption and customer education are customer success; field engineering leads are solutions', () => {
    expect(category('Technical Adoption Manager, Construction Cloud')).toBe('csm');
    expect(category('Customer Education Lead')).toBe('csm');
    expect(category('Director, Field Engineering - Retail')).toBe('solutions_engineer');
    expect(category('Head of Field Engineering Operations')).toBe('operations');
  });

  it('specialist sellers, partner relationship managers and systems-integrator leads are sales', () => {
    expect(category('Specialist Seller, Analytics')).toBe('sales');
    expect(category('Partner Relationship Manager, APAC')).toBe('sales');
    expect(category('Head of Global Systems Integrators')).toBe('sales');
  });

  it('trade, logistics and site management are operations; store team members stay other', () => {
    expect(category('Customs Specialist, Imports')).toBe('operations');
    expect(category('Logistics Coordinator')).toBe('operations');
    expect(category('District Manager, Northeast')).toBe('operations');
    expect(category('Store Team Member', 'Order Fulfillment')).toBe('other');
  });

  it('renewals and technical success leads are customer success; sales renewals specialists are not', () => {
    expect(category('Head of Renewals, EMEA')).toBe('csm');
    expect(category('Renewals Account Manager, Mid-Market')).toBe('csm');
    expect(category('Senior Technical Success Manager')).toBe('csm');
    expect(category('Director, Technical Success')).toBe('csm');
    expect(category('Customer Education Manager')).toBe('csm');
    expect(category('Customer Education, Curriculum Lead', 'GTM Readiness')).not.toBe('csm');
  });

  it('an enablement, mission or finance-system engineer is engineering, not operations or onboarding', () => {
    expect(category('Developer Tool Enablement Engineer')).toBe('engineering');
    expect(category('Mission Integration Engineer, Space Systems')).toBe('engineering');
    expect(category('Finance Systems Architect')).toBe('engineering');
    expect(category('Sales Enablement Manager')).toBe('operations');
  });

  it('people partners, talent programmes, paid media and EHS name their functions', () => {
    expect(category('Director, People Partners - Engineering')).toBe('hr');
    expect(category('Talent Programs Manager')).toBe('hr');
    expect(category('Paid Media Lead')).toBe('marketing');
    expect(category('EHS Specialist, Manufacturing')).toBe('operations');
    expect(category('Ecosystem Development Manager')).toBe('sales');
  });

  it('competitive intelligence and sponsorship are marketing, market researchers data, threat analysts support', () => {
    expect(category('Competitive Intelligence Analyst')).toBe('marketing');
    expect(category('Events & Sponsorship Manager')).toBe('marketing');
    expect(category('Senior Market Researcher')).toBe('data');
    expect(category('Threat Intelligence Analyst')).toBe('other');
  });

  it('a consultant whose title and department name no other function is professional services', () => {
    expect(explainRole({ title: 'CRM Consultant' })).toEqual({
      category: 'professional_services',
      rule: 'title:consultant',
    });
    expect(category('Senior Azure Cloud Consultant')).toBe('professional_services');
    expect(category('Partner Consultant', 'Solutions Consulting')).toBe('solutions_engineer');
    expect(category('Cloud Consultant', 'Engineering')).toBe('engineering');
    expect(category('People Consultant')).toBe('hr');
    expect(category('Travel Consultant')).toBe('other');
  });

  it('customer care and happiness engineers are support; support programme managers are operations', () => {
    expect(category('Customer Happiness Engineer (French)')).toBe('other');
    expect(category('Customer Reliability Engineer')).toBe('other');
    expect(category('Senior Customer Support Operations Readiness Program Manager')).toBe('operations');
    expect(category('Customer Support Controls & Governance Programme Manager')).toBe('operations');
  });

  it('inventory control, deal management and strategic account specialists name their functions', () => {
    expect(category('Inventory Control Specialist - Denton, TX')).toBe('operations');
    expect(category('Inventory Planner')).toBe('operations');
    expect(category('Senior Deal Manager - London')).toBe('sales');
    expect(category('Senior Enterprise and Strategic Account Specialist')).toBe('sales');
    expect(category('Senior RFP Analyst')).toBe('sales');
    expect(category('Lead Game Producer - Party & Puzzle Games')).toBe('other');
  });

  it('a bare producer takes its team from the department; equity plans, HRIS and account development name their functions', () => {
    expect(category('Producer (m/f/d)')).toBe('other');
    expect(category('Senior Producer, Live Games')).toBe('other');
    expect(category('Senior Producer, Global Events', 'Marketing')).toBe('marketing');
    expect(category('Creative Producer, Brand Campaigns')).toBe('marketing');
    expect(category('Equity Plans Administrator')).toBe('finance');
    expect(category('Global Equity Program Manager')).toBe('finance');
    expect(category('HRIS Analyst')).toBe('hr');
    expect(category('Manager, Account Development')).toBe('sales');
    expect(category('Performance Marketeer')).toBe('marketing');
  });

  it('an area vice president is a rank whose qualifiers name the function; sales trainers and support operations are not selling', () => {
    expect(category('Area Vice President - Financial Services')).toBe('sales');
    expect(category('Area Vice President, Sales Engineering')).toBe('sales_engineer');
    expect(category('Senior Sales Trainer - EMEA')).toBe('operations');
    expect(category('Product Support Operations Associate')).toBe('other');
    expect(category('Manager, Technical Services Engineering')).toBe('other');
    expect(category('Executive Engagement Lead, Office of the CRO')).toBe('sales');
    expect(category('Director, Field CTOs')).toBe('solutions_engineer');
    expect(category('Director, Technology Partners')).toBe('sales');
    expect(category('Transfer Pricing Manager')).toBe('finance');
    expect(category('Manager, Martech & CRM')).toBe('marketing');
    expect(category('Video Production Intern')).toBe('marketing');
  });

  it('services architects and engagement management are professional services; a resident solutions architect too', () => {
    expect(category('Principal Services Architect, Data Platform')).toBe('professional_services');
    expect(category('Director, Engagement Management - EMEA')).toBe('professional_services');
    expect(category('Lead, Services Consulting')).toBe('professional_services');
    expect(category('Senior Resident Solutions Architect - Azure')).toBe('professional_services');
    expect(category('Staff Field Architect, Public Sector')).toBe('solutions_engineer');
    expect(category('Solutions Architect, Retail')).toBe('solutions_engineer');
  });

  it('a function word ahead of a client-facing noun keeps the title in that function', () => {
    expect(category('Senior Audit Engagement Lead')).toBe('finance');
    expect(category('Internal Audit Services Consultant')).toBe('finance');
    expect(category('HRIS Implementation Specialist')).toBe('hr');
    expect(category('People Systems Integration Analyst')).toBe('hr');
    expect(category('Benefits Eligibility Consultant')).not.toBe('professional_services');
    expect(category('Case Management Nurse Consultant')).toBe('other');
  });

  it('drivers, trades, plant associates, operations engineers, investment analysts and wealth advisors name their functions', () => {
    expect(category('CDL B Delivery Driver - Early Shift')).toBe('operations');
    expect(category('Sanitation Associate - Weekends')).toBe('operations');
    expect(category('Machine Operator II')).toBe('operations');
    expect(category('Equity Investment Analyst')).toBe('finance');
    expect(category('Private Wealth Advisor')).toBe('sales');
    expect(category('Director, Relationship Management - Institutional')).toBe('sales');
    expect(category('Senior Software Engineer (iOS) - Driver Experience')).toBe('engineering');
    expect(category('Site Electrician - Night Shift')).toBe('operations');
    expect(category('Director, Construction - Data Centers')).toBe('operations');
    expect(category('Senior Operations Engineer, Payments Platform')).toBe('engineering');
    expect(category('Revenue Operations Engineer')).toBe('operations');
  });
});
